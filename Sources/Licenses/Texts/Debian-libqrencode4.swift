// Copied from /usr/share/doc/libqrencode4/copyright (Debian 12), byte for byte.
// Do not edit: LicensesTests compares it with that file.

extension LicenceTexts {
    static let debianLibqrencode4 = #"""
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: qrencode
Upstream-Contact: Kentaro Fukuchi <kentaro@fukuchi.org>
Source: https://fukuchi.org/works/qrencode/

Files: *
Copyright: (C) 2006-2017 Kentaro Fukuchi <kentaro@fukuchi.org>
License: LGPL-2.1+

Files: rsecc.c rsecc.h
Copyright: (C) 2002, 2003, 2004, 2006 Phil Karn, KA9Q
	   (C) 2014-2017 Kentaro Fukuchi <kentaro@fukuchi.org>
License: LGPL-2.1+

Files: debian/*
Copyright: none
License: public-domain
 The Debian packaging is done by NIIBE Yutaka <gniibe@fsij.org> and
 he put the work under public domain.

License: LGPL-2.1+
 This library is free software; you can redistribute it and/or modify it under
 the terms of the GNU Lesser General Public License as published by the Free
 Software Foundation; either version 2.1 of the License, or any later version.
 .
 This library is distributed in the hope that it will be useful, but WITHOUT ANY
 WARRANTY; without even the implied warranty of MERCHANTABILITY or FITNESS FOR A
 PARTICULAR PURPOSE. See the GNU Lesser General Public License for more details.
 .
 You should have received a copy of the GNU Lesser General Public License along
 with this library; if not, write to the Free Software Foundation, Inc., 51
 Franklin St, Fifth Floor, Boston, MA 02110-1301 USA
 .
 On Debian systems, the complete text of the GNU Lesser General
 Public License 2.1 can be found in `/usr/share/common-licenses/LGPL-2.1'.

"""#
}
