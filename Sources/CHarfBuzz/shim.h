#include <hb.h>
#include <hb-ot.h>
#include <hb-subset.h>

/* Constants whose Swift import differs between HarfBuzz versions: HarfBuzz 6 (Debian 12) declares
   HB_OT_NAME_ID_POSTSCRIPT_NAME in an anonymous enum, which Swift imports as an integer; HarfBuzz
   10 (Debian 13) names that enum hb_ot_name_id_predefined_t, which Swift imports as a struct that
   hb_ot_name_id_t(...) cannot take. In C both are plain integers. */

/// The OpenType name id of the PostScript name (6).
static inline hb_ot_name_id_t chb_name_id_postscript_name(void) { return HB_OT_NAME_ID_POSTSCRIPT_NAME; }
