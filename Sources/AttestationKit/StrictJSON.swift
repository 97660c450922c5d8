import Foundation

/// JSON decoding that refuses keys the target type does not know, so that a typo in a form
/// (`"lable"`) is an error instead of a field silently left at its default.
///
/// Codable ignores unknown keys; rather than hand-writing every `init(from:)`, the decoded value
/// is encoded again and any key of the input missing from that round trip is unknown.
public enum StrictJSON {
    /// The JSON path of the problem (`reasons[2].label`) and a French message.
    public struct Failure: Error, Sendable {
        public let path: String
        public let message: String
    }

    public static func decode<T: Codable>(_ type: T.Type, from data: Data) throws(Failure) -> T {
        let value: T
        do {
            value = try JSONDecoder().decode(T.self, from: data)
        } catch let error as DecodingError {
            throw describe(error)
        } catch {
            throw Failure(path: "", message: "JSON illisible.")
        }
        do {
            let input = try JSONSerialization.jsonObject(with: data)
            let known = try JSONSerialization.jsonObject(with: JSONEncoder().encode(value))
            if let path = unknownKey(in: input, knownFrom: known, path: "") {
                throw Failure(path: path, message: "clé inconnue.")
            }
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(path: "", message: "JSON illisible.")
        }
        return value
    }

    private static func unknownKey(in input: Any, knownFrom known: Any, path: String) -> String? {
        if let object = input as? [String: Any] {
            let knownObject = known as? [String: Any] ?? [:]
            for key in object.keys.sorted() {
                let childPath = path.isEmpty ? key : "\(path).\(key)"
                guard let knownChild = knownObject[key] else {
                    // An optional set to null is not encoded back; an unknown key set to null
                    // cannot be told apart from it, and carries nothing that could be lost.
                    if object[key] is NSNull { continue }
                    return childPath
                }
                if let found = unknownKey(in: object[key]!, knownFrom: knownChild, path: childPath) { return found }
            }
        } else if let array = input as? [Any], let knownArray = known as? [Any] {
            for (index, element) in array.enumerated() where index < knownArray.count {
                if let found = unknownKey(in: element, knownFrom: knownArray[index], path: "\(path)[\(index)]") {
                    return found
                }
            }
        }
        return nil
    }

    private static func describe(_ error: DecodingError) -> Failure {
        switch error {
        case .keyNotFound(let key, let context):
            return Failure(path: render(context.codingPath + [key]), message: "clé obligatoire absente.")
        case .typeMismatch(let type, let context):
            return Failure(path: render(context.codingPath), message: "type inattendu ; \(typeName(type)) attendu.")
        case .valueNotFound(let type, let context):
            return Failure(path: render(context.codingPath), message: "valeur absente ; \(typeName(type)) attendu.")
        case .dataCorrupted(let context):
            return Failure(path: render(context.codingPath), message: "valeur invalide (\(context.debugDescription)).")
        @unknown default:
            return Failure(path: "", message: "JSON invalide.")
        }
    }

    private static func render(_ path: [CodingKey]) -> String {
        path.reduce(into: "") { result, key in
            if let index = key.intValue {
                result += "[\(index)]"
            } else {
                result += result.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "texte"
        case is Double.Type, is Int.Type: "nombre"
        case is Bool.Type: "booléen"
        default: "\(type)"
        }
    }
}
