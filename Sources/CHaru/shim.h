#include <hpdf.h>
/* The page's content stream and local font names: Rendering writes its precomputed content
   directly instead of one libharu call per operator. */
#include <hpdf_pages.h>
#include <hpdf_streams.h>

/* Rendering (HaruInternals.swift) reads and writes structures that libharu declares in its
   headers but keeps as its own (the document's memory manager and cross-reference table, a
   stream's filter and write hook, a page's attributes): their layouts were checked against
   libharu 2.3.0, the release of Debian 12 and 13, and may differ in any other. */
#if HPDF_MAJOR_VERSION != 2 || HPDF_MINOR_VERSION != 3 || HPDF_BUGFIX_VERSION != 0
#error "libharu 2.3.0 expected (libhpdf-dev of Debian 12 or 13): Rendering/HaruInternals.swift uses its private structures, whose layouts were checked against 2.3.0 only."
#endif

/// The libharu release the private structures were checked against ("2.3.0").
static inline const char *charu_checked_version(void) { return HPDF_VERSION_TEXT; }

/* libharu loads a TrueType font from a path only (HPDF_LoadTTFontFromFile), and reads the file
   again when it writes the document: a built-in font is handed to it as an anonymous file in
   memory, named by /proc/self/fd/N. Declared here rather than through <sys/mman.h>, which
   declares it only under _GNU_SOURCE. */
extern int memfd_create(const char *name, unsigned int flags);
/// An anonymous memory file closed on exec (MFD_CLOEXEC), or -1 with errno.
static inline int charu_memory_file(const char *name) { return memfd_create(name, 1U); }
