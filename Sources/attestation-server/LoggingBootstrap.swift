import AttestationConfiguration
import Logging

extension ServerLogHandler {
    /// Makes this handler the process's logging system, writing to standard error at `level`
    /// and above; once, before any logger is made.
    static func bootstrap(level: LogLevel, format: LogFormat) {
        let level = Logger.Level(level)
        LoggingSystem.bootstrap { ServerLogHandler(label: $0, level: level, format: format) }
    }
}

extension Logger.Level {
    /// swift-log's level of the same name.
    init(_ level: LogLevel) {
        self =
            switch level {
            case .trace: .trace
            case .debug: .debug
            case .info: .info
            case .notice: .notice
            case .warning: .warning
            case .error: .error
            case .critical: .critical
            }
    }
}
