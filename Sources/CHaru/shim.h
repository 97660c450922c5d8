#include <hpdf.h>
/* The page's content stream and local font names: Rendering writes its precomputed content
   directly instead of one libharu call per operator. */
#include <hpdf_pages.h>
#include <hpdf_streams.h>
