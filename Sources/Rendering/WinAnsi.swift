import AttestationKit

/// Windows-1252, the byte encoding of the standard PDF fonts' `WinAnsiEncoding`. libharu takes
/// bytes, not Swift strings: UTF-8 passed as-is would print "é" as "Ã©". The encoder is
/// AttestationKit's, the one the load-time checks of a form measure with.
typealias WinAnsi = WinAnsiText
