import Foundation
import TestSupport
import Testing

@testable import FormSchema

/// A TrueType file an administrator gives with a form, read by FormSchema's own reader: every
/// count and offset it follows must stay inside its table and the file, or the font is refused
/// at load with what is wrong. The damaged copies of Luciole are the fuzz corpus's
/// (Tests/Fuzz/Corpus/font-file); issue 38 found the first two crashing libharu, the next
/// accepted and drawn with widths read from another table.
@Suite struct FontFileTests {
    static let refusals: [(seed: String, reason: String)] = [
        ("hhea-65535-metriques", "nombre de métriques (hhea, 65535) incohérent avec le nombre de glyphes (maxp, 755)"),
        ("maxp-65535-glyphes", "table « hmtx » trop courte (3020 octets, 132580 au moins)"),
        ("table-hors-du-fichier", "table des tables tronquée, ou table qui sort du fichier"),
        ("cmap-sous-table-hors-du-fichier", "pas de table cmap Unicode lisible"),
        ("cmap-format4-longueur-0", "pas de table cmap Unicode lisible"),
        ("loca-format-long", "table « loca » trop courte (1512 octets, 3024 au moins)"),
        ("glyf-plus-court-que-loca", "hors de la table glyf (loca incohérente)"),
        ("tronquee", "table des tables tronquée, ou table qui sort du fichier"),
        ("vide", "pas une police TrueType"),
    ]

    static func read(_ seed: String) throws(FontFile.Unreadable) -> FontFile {
        try FontFile(name: "Luciole", fileName: seed, path: FuzzCorpus.seed("font-file", seed).path)
    }

    @Test func eachDamagedCopyOfLucioleIsRefusedSayingWhatIsWrong() throws {
        for (seed, reason) in Self.refusals {
            let error = try #require(throws: FontFile.Unreadable.self, "\(seed)") { try Self.read(seed) }
            #expect(error.reason.contains(reason), "\(seed): \(error.reason)")
        }
    }

    @Test func theSeedsCoverEveryDamagedCopy() throws {
        #expect(
            Set(try FuzzCorpus.names("font-file")) == Set(Self.refusals.map(\.seed) + ["luciole-regular"]),
            "a new seed needs its expected refusal here")
    }
}
