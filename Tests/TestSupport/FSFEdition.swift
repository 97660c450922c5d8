import Foundation

/// The FSF's later edition of its GPL and LGPL texts, which Debian 13 ships in
/// /usr/share/common-licenses where Debian 12 ships the earlier one: the postal address replaced
/// by web addresses, and "Ty Coon" by "Moe Ghoul" in the sample disclaimer (`diff` of the two
/// releases' LGPL-2, LGPL-2.1 and GPL-2: nothing else differs; GPL-3, LGPL-3 and Apache-2.0 are
/// the same). The licence is the same; the texts the programs embed are Debian 12's.
public enum FSFEdition {
    /// The earlier edition's wording and the later one's, in the order they are replaced.
    static let changes: [(earlier: String, later: String)] = [
        (
            "    License along with this library; if not, write to the Free Software\n"
                + "    Foundation, Inc., 51 Franklin Street, Fifth Floor, Boston, MA  02110-1301  USA",
            "    License along with this library; if not, see <https://www.gnu.org/licenses/>."
        ),
        (
            "    with this program; if not, write to the Free Software Foundation, Inc.,\n"
                + "    51 Franklin Street, Fifth Floor, Boston, MA 02110-1301 USA.",
            "    with this program; if not, see <https://www.gnu.org/licenses/>."
        ),
        (" 51 Franklin Street, Fifth Floor, Boston, MA  02110-1301  USA", " <https://fsf.org/>"),
        (" 51 Franklin Street, Fifth Floor, Boston, MA 02110-1301 USA", " <https://fsf.org/>"),
        ("Ty Coon", "Moe Ghoul"),
    ]

    /// The text in the later edition's wording: equal for the two editions of one licence, and
    /// unchanged for a text in the later edition already.
    public static func later(_ text: String) -> String {
        changes.reduce(text) { $0.replacingOccurrences(of: $1.earlier, with: $1.later) }
    }
}
