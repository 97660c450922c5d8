import Foundation
import TestSupport
import Testing

/// Requests to one shared server, one test at a time: the nested suites are in extensions.
@Suite(.serialized, .sharedServer)
struct SharedServerTests {}
