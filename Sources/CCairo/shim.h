#include <cairo.h>
#include <cairo-ft.h>
#include <fontconfig/fontconfig.h>
