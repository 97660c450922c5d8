// Copied from /usr/share/doc/libmicrohttpd12/copyright (Debian 12), byte for byte.
// Do not edit: LicensesTests compares it with that file.

extension LicenceTexts {
    static let debianLibmicrohttpd12 = #"""
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: GNU Libmicrohttpd
Upstream-Contact: Christian Grothoff <christian@grothoff.org>
Source: https://ftp.gnu.org/gnu/libmicrohttpd/

Files: *
Copyright: 2007-2021 Christian Grothoff <christian@grothoff.org>
           2015-2019 Evgeny Grin (Karlson2k) <k2k@narod.ru>
           2020 Silvio Clecio <silvioprog@gmail.com>
License: LGPL-2.1+

Files: doc/*
Copyright: 2007-2021 Christian Grothoff <christian@grothoff.org>
           2015-2019 Evgeny Grin (Karlson2k) <k2k@narod.ru>
License: GFDL-1.3+

Files: src/microhttpd/md5.*
Copyright: 1993 Colin Plumb
License: public-domain
 This code is in the public domain; do with it what you wish.

Files: debian/*
Copyright: 2007-2022 Daniel Baumann <daniel.baumann@progress-linux.org>
           2012-2020 Bertrand Marc <bmarc@debian.org>
License: LGPL-2.1+

License: GFDL-1.3+
 Permission is granted to copy, distribute and/or modify this document
 under the terms of the GNU Free Documentation License, Version 1.3
 or any later version published by the Free Software Foundation;
 with no Invariant Sections, no Front-Cover Texts, and no Back-Cover Texts.
 .
 The complete text of the GNU Free  Documentation License
 can be found in /usr/share/common-licenses/GFDL-1.3 file.

License: LGPL-2.1+
 This library is free software; you can redistribute it and/or
 modify it under the terms of the GNU Lesser General Public
 License as published by the Free Software Foundation; either
 version 2.1 of the License, or (at your option) any later version.
 .
 This library is distributed in the hope that it will be useful,
 but WITHOUT ANY WARRANTY; without even the implied warranty of
 MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE. See the GNU
 Lesser General Public License for more details.
 .
 The complete text of the GNU Library General Public License
 can be found in /usr/share/common-licenses/LGPL-2.1 file.

"""#
}
