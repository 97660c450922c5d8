import ArgumentParser
import Foundation

extension ParsableCommand {
    /// Ends the program on an error the parser or a command threw, as swift-argument-parser's
    /// own `exit(withError:)` would (help on standard output with 0, anything else on standard
    /// error with its exit status: 64 for a usage error), but with the parser's text in French.
    public static func exitInFrench(_ error: any Error) -> Never {
        let program = configuration.commandName ?? "\(Self.self)"
        let text = FrenchParserText.translate(fullMessage(for: error), program: program)
        let status = exitCode(for: error)
        if status == .success {
            print(text)
        } else if !text.isEmpty {
            FileHandle.standardError.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
        }
        Foundation.exit(status.rawValue)
    }
}
