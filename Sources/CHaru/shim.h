#include <hpdf.h>
