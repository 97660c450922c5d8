// Copied from /usr/share/doc/libp11-kit0/copyright (Debian 12), byte for byte.
// Do not edit: LicensesTests compares it with that file.

extension LicenceTexts {
    static let debianLibp11Kit0 = #"""
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: p11-kit
Source: https://p11-glue.github.io/p11-glue/p11-kit.html

Files: *
Copyright: 2011 Collabora Ltd.
 2004, 2005, 2007, 2008, 2012, 2013 Stefan Walter
 2012, 2013, 2014, 2015, 2016, 2017, 2018, 2019 Red Hat, Inc.
 2012, 2013 Redhat Inc.
License: BSD-3-Clause

Files: common/pkcs11.h
Copyright: 2006, 2007 g10 Code GmbH
           2006 Andreas Jellinghaus
           Copyright 2017 Red Hat, Inc.
License: permissive-like-automake-output
   This file is free software; as a special exception the author gives
   unlimited permission to copy and/or distribute it, with or without
   modifications, as long as this notice is preserved.
 .
   This file is distributed in the hope that it will be useful, but
   WITHOUT ANY WARRANTY, to the extent permitted by law; without even
   the implied warranty of MERCHANTABILITY or FITNESS FOR A PARTICULAR
   PURPOSE.  */

Files: common/vsock.c common/vsock.h
Copyright: 2020 Amazon.com, Inc. or its affiliates.
License: BSD-3-Clause


Files: p11-kit/server.c
 common/unix-peer.h
Copyright: 2014 Red Hat Inc.
License: BSD-3-Clause
Comment: make_private_security_descriptor() and the helper functions were
 * copied from putty/windows/winsecur.c in the PuTTY source code as of
 * git commit 12bd5a6c722152aa27f24598785593e72b3284ea.
 *
 * PuTTY is copyright 1997-2017 Simon Tatham.
 *
 * Portions copyright Robert de Bath, Joris van Rantwijk, Delian
 * Delchev, Andreas Schultz, Jeroen Massar, Wez Furlong, Nicolas Barry,
 * Justin Bradford, Ben Harris, Malcolm Smith, Ahmad Khalifa, Markus
 * Kuhn, Colin Watson, Christopher Staite, and CORE SDI S.A.
 *
 * Permission is hereby granted, free of charge, to any person
 * obtaining a copy of this software and associated documentation files
 * (the "Software"), to deal in the Software without restriction,
 * including without limitation the rights to use, copy, modify, merge,
 * publish, distribute, sublicense, and/or sell copies of the Software,
 * and to permit persons to whom the Software is furnished to do so,
 * subject to the following conditions:
 *
 * The above copyright notice and this permission notice shall be
 * included in all copies or substantial portions of the Software.

Files: trust/digest.c common/hash.c
Copyright: 2004, 2005, 2007, 2011  Internet Systems Consortium, Inc. ("ISC")
           2000, 2001, 2003  Internet Software Consortium.
License: ISC
 Permission to use, copy, modify, and/or distribute this software for any
 purpose with or without fee is hereby granted, provided that the above
 copyright notice and this permission notice appear in all copies.
 .
 THE SOFTWARE IS PROVIDED "AS IS" AND ISC DISCLAIMS ALL WARRANTIES WITH
 REGARD TO THIS SOFTWARE INCLUDING ALL IMPLIED WARRANTIES OF MERCHANTABILITY
 AND FITNESS.  IN NO EVENT SHALL ISC BE LIABLE FOR ANY SPECIAL, DIRECT,
 INDIRECT, OR CONSEQUENTIAL DAMAGES OR ANY DAMAGES WHATSOEVER RESULTING FROM
 LOSS OF USE, DATA OR PROFITS, WHETHER IN AN ACTION OF CONTRACT, NEGLIGENCE
 OR OTHER TORTIOUS ACTION, ARISING OUT OF OR IN CONNECTION WITH THE USE OR
 PERFORMANCE OF THIS SOFTWARE.


Files: trust/base64.c trust/base64.h
Copyright: 1996, 1998 by Internet Software Consortium
  Portions Copyright (c) 1995 by International Business Machines, Inc.
License: ISC+IBM
 Copyright (c) 1996, 1998 by Internet Software Consortium.
 .
 Permission to use, copy, modify, and distribute this software for any
 purpose with or without fee is hereby granted, provided that the above
 copyright notice and this permission notice appear in all copies.
 .
 THE SOFTWARE IS PROVIDED "AS IS" AND INTERNET SOFTWARE CONSORTIUM DISCLAIMS
 ALL WARRANTIES WITH REGARD TO THIS SOFTWARE INCLUDING ALL IMPLIED WARRANTIES
 OF MERCHANTABILITY AND FITNESS. IN NO EVENT SHALL INTERNET SOFTWARE
 CONSORTIUM BE LIABLE FOR ANY SPECIAL, DIRECT, INDIRECT, OR CONSEQUENTIAL
 DAMAGES OR ANY DAMAGES WHATSOEVER RESULTING FROM LOSS OF USE, DATA OR
 PROFITS, WHETHER IN AN ACTION OF CONTRACT, NEGLIGENCE OR OTHER TORTIOUS
 ACTION, ARISING OUT OF OR IN CONNECTION WITH THE USE OR PERFORMANCE OF THIS
 SOFTWARE.
 .
 .
 Portions Copyright (c) 1995 by International Business Machines, Inc.
 .
 International Business Machines, Inc. (hereinafter called IBM) grants
 permission under its copyrights to use, copy, modify, and distribute this
 Software with or without fee, provided that the above copyright notice and
 all paragraphs of this notice appear in all copies, and that the name of IBM
 not be used in connection with the marketing of any product incorporating
 the Software or modifications thereof, without specific, written prior
 permission.
 .
 To the extent it has a right to do so, IBM grants an immunity from suit
 under its patents, if any, for the use, sale or manufacture of products to
 the extent that such products are used for performing Domain Name System
 dynamic updates in TCP/IP networks by means of the Software.  No immunity is
 granted for any product per se or for any other function of any product.
 .
 THE SOFTWARE IS PROVIDED "AS IS", AND IBM DISCLAIMS ALL WARRANTIES,
 INCLUDING ALL IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS FOR A
 PARTICULAR PURPOSE.  IN NO EVENT SHALL IBM BE LIABLE FOR ANY SPECIAL,
 DIRECT, INDIRECT, OR CONSEQUENTIAL DAMAGES OR ANY DAMAGES WHATSOEVER ARISING
 OUT OF OR IN CONNECTION WITH THE USE OR PERFORMANCE OF THIS SOFTWARE, EVEN
 IF IBM IS APPRISED OF THE POSSIBILITY OF SUCH DAMAGES.

Files: common/compat.c
Copyright: Copyright (c) 2011 Collabora Ltd.
 Portions of this file are covered by the following copyright:
 Copyright (c) 2001 Mike Barcroft <mike@FreeBSD.org>
 Copyright (c) 1990, 1993
 Copyright (c) 1987, 1993
      The Regents of the University of California.
Comment: This code is derived from software contributed to Berkeley by
 Chris Torek.
License: BSD-3-Clause


Files: common/unix-peer.c
Copyright: 2013 Nikos Mavrogiannopoulos
License: BSD-3-Clause

Files: common/frob-getprogname.c
Copyright: 2020 Red Hat Inc.
License: BSD-3-Clause

Files: p11-kit/mock-module-ep8.c
Copyright: 2012 Stefan Walter
 2020 Red Hat, Inc.
License: BSD-3-Clause

Files: fuzz/main.c
Copyright: 2017 Nikos Mavrogiannopoulos
License: LGPL-2.1+

Files: fuzz/rpc_fuzzer.c
Copyright: 2016 Google Inc
License: Apache-2.0

Files: debian/*
Copyright: 2011 Chris Coulson <chris.coulson@canonical.com>
           2011-2022 Andreas Metzler <ametzler@debian.org>
License: BSD-3-Clause


Files: po/de.po
Copyright: 2011 Chris Leick
Comment: This file is distributed under the same license as the
 debian files of the p11-kit package.
License: BSD-3-Clause

Files: po/fi.po
Copyright: 2012 Rosetta Contributors and Canonical Ltd 2012
 Eerik Uusi-Illikainen https://launchpad.net/~ekiuusi-4, 2012
 Timo Jyrinki <timo.jyrinki@iki.fi>, 2012
License: same-as-rest-of-p11kit
 This file is distributed under the same license as the p11-kit
 package.


License: BSD-3-Clause
 Redistribution and use in source and binary forms, with or without
 modification, are permitted provided that the following conditions
 are met:
 1. Redistributions of source code must retain the above copyright
    notice, this list of conditions and the following disclaimer.
 2. Redistributions in binary form must reproduce the above copyright
    notice, this list of conditions and the following disclaimer in the
    documentation and/or other materials provided with the distribution.
 3. Neither the name of the University nor the names of its contributors
    may be used to endorse or promote products derived from this software
    without specific prior written permission.
 .
 THIS SOFTWARE IS PROVIDED BY THE REGENTS AND CONTRIBUTORS ``AS IS'' AND
 ANY EXPRESS OR IMPLIED WARRANTIES, INCLUDING, BUT NOT LIMITED TO, THE
 IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS FOR A PARTICULAR PURPOSE
 ARE DISCLAIMED.  IN NO EVENT SHALL THE REGENTS OR CONTRIBUTORS BE LIABLE
 FOR ANY DIRECT, INDIRECT, INCIDENTAL, SPECIAL, EXEMPLARY, OR CONSEQUENTIAL
 DAMAGES (INCLUDING, BUT NOT LIMITED TO, PROCUREMENT OF SUBSTITUTE GOODS
 OR SERVICES; LOSS OF USE, DATA, OR PROFITS; OR BUSINESS INTERRUPTION)
 HOWEVER CAUSED AND ON ANY THEORY OF LIABILITY, WHETHER IN CONTRACT, STRICT
 LIABILITY, OR TORT (INCLUDING NEGLIGENCE OR OTHERWISE) ARISING IN ANY WAY
 OUT OF THE USE OF THIS SOFTWARE, EVEN IF ADVISED OF THE POSSIBILITY OF
 SUCH DAMAGE.

License: LGPL-2.1+
 On Debian systems a copy of the LGPL 2.1 license can be found in
 /usr/share/common-licenses/LGPL-2.1

License: Apache-2.0
 On Debian systems a copy of the Apache 2.0 license can be found in
 /usr/share/common-licenses/Apache-2.0

"""#
}
