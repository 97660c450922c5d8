#include <qrencode.h>

/* QRcode_encodeMask: the code of `input` with one given mask (0 to 7), instead of scoring all
   eight as QRcode_encodeInput does (-1), which is most of libqrencode's time: 134 µs against
   20 µs for an attestation's payload. Declared in libqrencode's qrencode_inner.h, not in
   qrencode.h. libqrencode 4.1.1 as Debian 12 builds it (with its tests) exports the symbol:
   `nm -D /usr/lib/x86_64-linux-gnu/libqrencode.so.4` lists "T QRcode_encodeMask". A build
   without tests makes it static (STATIC_IN_RELEASE): linking then fails, loudly, and never
   produces a wrong code. */
extern QRcode *QRcode_encodeMask(QRinput *input, int mask);
