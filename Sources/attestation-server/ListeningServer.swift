import AttestationService
import HTTPServer

extension HTTPServer {
    /// Listens and answers with `service`'s routes, from now on.
    convenience init(serving service: Service, configuration: HTTPServerConfiguration) throws(HTTPServerError) {
        try self.init(
            configuration: configuration, observer: service.serverObserver,
            refusalResponder: service.refusalResponder, isExpensive: service.isExpensive,
            handler: service.handler)
    }
}

extension HTTPServerError {
    /// Why the server cannot listen, for the person who started it.
    var explanation: String {
        switch self {
        case .invalidLimits:
            "limites invalides : connexions > 0, par adresse ≥ 0, délai > 0 s, taille de requête ≥ 1024 octets."
        case .invalidPort(let port): "port \(port) invalide ; attendu : 0 à 65535."
        case .unknownHost(let host, let reason): "adresse d’écoute « \(host) » inconnue : \(reason)."
        case .addressInUse(let host, let port):
            "impossible d’écouter sur \(host):\(port) : le port \(port) est déjà utilisé par un autre programme."
        case .permissionDenied(let host, let port):
            "impossible d’écouter sur \(host):\(port) : permission refusée (un port sous 1024 demande des droits)."
        case .addressNotAvailable(let host, let port):
            "impossible d’écouter sur \(host):\(port) : cette adresse n’appartient pas à cette machine."
        case .listenFailed(let host, let port, let reason): "impossible d’écouter sur \(host):\(port) : \(reason)."
        case .tlsUnsupported: "cette libmicrohttpd n’a pas été compilée avec TLS (GnuTLS)."
        case .tlsCredentialsRejected:
            "libmicrohttpd n’a pas pu démarrer : certificat ou clé TLS illisible, ou qui ne vont pas ensemble."
        case .startFailed: "libmicrohttpd n’a pas pu démarrer (threads ou mémoire insuffisants ?)."
        }
    }
}
