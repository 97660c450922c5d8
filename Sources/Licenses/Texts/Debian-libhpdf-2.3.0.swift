// Copied from /usr/share/doc/libhpdf-2.3.0/copyright (Debian 12), byte for byte.
// Do not edit: LicensesTests compares it with that file.

extension LicenceTexts {
    static let debianLibhpdf230 = #"""
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: libharu
Upstream-Contact: libharu@googlegroups.com
Source: https://github.com/libharu/libharu
Comment: These files are removed from the upstream archive:
 demo/pngsuite: non dfsg-free license
 demo/ttfont: font already in package ttf-dustin
 demo/type1: fonts already in package gsfonts
 demo/*.pdf: binary files
 win32/: binary files and/or unneeded files for debian build
Files-Excluded: demo/pngsuite
 demo/ttfont
 demo/type1
 demo/*.pdf
 win32

Files: *
Copyright: 1999-2006, Takeshi Kanno <takeshi_kanno@est.hi-ho.ne.jp>
           2007-2015, Antony Dovgal <tony@daylessday.org>
                2010, Sergey Konovalov <webmaster@crynet.ru>
                2011, Koen Deforche <koen@emweb.be>
License: libharu

Files: include/hpdf_encrypt.h
 src/hpdf_encrypt.c
Copyright: 1999-2006, Takeshi Kanno <takeshi_kanno@est.hi-ho.ne.jp>
           2007-2009, Antony Dovgal <tony@daylessday.org>
Comment: From the file header:
 The code implements MD5 message-digest algorithm is based on the code
 written by Colin Plumb.
 The copyright of it is as follows.
 .
 This code implements the MD5 message-digest algorithm.
 The algorithm is due to Ron Rivest.  This code was
 written by Colin Plumb in 1993, no copyright is claimed.
 This code is in the public domain; do with it what you wish.
 .
 Equivalent code is available from RSA Data Security, Inc.
 This code has been tested against that, and is equivalent,
 except that you don't need to include two pages of legalese
 with every copy.
 .
 To compute the message digest of a chunk of bytes, declare an
 MD5Context structure, pass it to MD5Init, call MD5Update as
 needed on buffers full of bytes, and then call MD5Final, which
 will fill a supplied 16-byte array with the digest.
License: libharu

Files: src/t4.h
Copyright: 1988-1997, Sam Leffler
           1991-1997, Silicon Graphics, Inc
License: t4

Files: debian/*
Copyright: 2010-2015, Johan Van de Wauw
License: libharu

License: libharu
 Permission to use, copy, modify, distribute and sell this software
 and its documentation for any purpose is hereby granted without fee,
 provided that the above copyright notice appear in all copies and
 that both that copyright notice and this permission notice appear
 in supporting documentation.
 It is provided "as is" without express or implied warranty.

License: t4
 Permission to use, copy, modify, distribute, and sell this software and
 its documentation for any purpose is hereby granted without fee, provided
 that (i) the above copyright notices and this permission notice appear in
 all copies of the software and related documentation, and (ii) the names of
 Sam Leffler and Silicon Graphics may not be used in any advertising or
 publicity relating to the software without the specific, prior written
 permission of Sam Leffler and Silicon Graphics.
 .
 THE SOFTWARE IS PROVIDED "AS-IS" AND WITHOUT WARRANTY OF ANY KIND,
 EXPRESS, IMPLIED OR OTHERWISE, INCLUDING WITHOUT LIMITATION, ANY
 WARRANTY OF MERCHANTABILITY OR FITNESS FOR A PARTICULAR PURPOSE.
 .
 IN NO EVENT SHALL SAM LEFFLER OR SILICON GRAPHICS BE LIABLE FOR
 ANY SPECIAL, INCIDENTAL, INDIRECT OR CONSEQUENTIAL DAMAGES OF ANY KIND,
 OR ANY DAMAGES WHATSOEVER RESULTING FROM LOSS OF USE, DATA OR PROFITS,
 WHETHER OR NOT ADVISED OF THE POSSIBILITY OF DAMAGE, AND ON ANY THEORY OF
 LIABILITY, ARISING OUT OF OR IN CONNECTION WITH THE USE OR PERFORMANCE
 OF THIS SOFTWARE.


"""#
}
