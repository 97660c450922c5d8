// Copied from /usr/share/doc/libgmp10/copyright (Debian 12), byte for byte.
// Do not edit: LicensesTests compares it with that file.

extension LicenceTexts {
    static let debianLibgmp10 = #"""
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: GMP
Source: http://gmplib.org/
Comment: This gmp package was built for Debian by
  Steve M. Robbins <smr@debian.org>
  Philipp Matthias Hahn <pmhahn@debian.org>
 .
 The documentation is released under the GNU Free Documentation License
 (GFDL) and it has cover texts.  As such, it has been determined not to
 meet the Debian Free Software Guidelines, and is not shipped in the
 debian packages.
Files-Excluded: doc

Files: *
Copyright: 1991, 1996, 1999, 2000, 2007 Free Software Foundation, Inc.
License: GPL-2+ or LGPL-3+
Comment:
 This file is part of the GNU MP Library.
 .
 The GNU MP Library is free software; you can redistribute it and/or modify
 it under the terms of either:
 .
  * the GNU Lesser General Public License as published by the Free
    Software Foundation; either version 3 of the License, or (at your
    option) any later version.
 .
 or
 .
  * the GNU General Public License as published by the Free Software
    Foundation; either version 2 of the License, or (at your option) any
    later version.
 .
 or both in parallel, as here.
 .
 The GNU MP Library is distributed in the hope that it will be useful, but
 WITHOUT ANY WARRANTY; without even the implied warranty of MERCHANTABILITY
 or FITNESS FOR A PARTICULAR PURPOSE.  See the GNU General Public License
 for more details.
 .
 You should have received copies of the GNU General Public License and the
 GNU Lesser General Public License along with the GNU MP Library.  If not,
 see https://www.gnu.org/licenses/.

Files: demos/calc/*.[chyl]
 demos/factorize.c demos/isprime.c demos/primes.[ch] demos/qcn.c demos/pexpr*
Copyright: 1995, 1997-2003, 2005, 2006, 2008, 2009, 2012, 2015 Free Software Foundation, Inc.
License: GPL-3+

Files: demos/calc/calc.[ch]
Copyright: (C) 1984, 1989-1990, 2000-2015, 2018-2020 Free Software Foundation, Inc.
License: GPL-3+ with Bison exception
   This program is free software: you can redistribute it and/or modify
   it under the terms of the GNU General Public License as published by
   the Free Software Foundation, either version 3 of the License, or
   (at your option) any later version.
 .
   This program is distributed in the hope that it will be useful,
   but WITHOUT ANY WARRANTY; without even the implied warranty of
   MERCHANTABILITY or FITNESS FOR A PARTICULAR PURPOSE.  See the
   GNU General Public License for more details.
 .
   You should have received a copy of the GNU General Public License
   along with this program.  If not, see <http://www.gnu.org/licenses/>.
 .
   As a special exception, you may create a larger work that contains
   part or all of the Bison parser skeleton and distribute that work
   under terms of your choice, so long as that work isn't itself a
   parser generator using the skeleton or a modified version thereof
   as a parser skeleton.  Alternatively, if you modify or redistribute
   the parser skeleton itself, you may (at your option) remove this
   special exception, which will cause the skeleton and the resulting
   Bison output files to be licensed under the GNU General Public
   License without this special exception.

License: GPL-2+
 The GNU General Public License v2 text is contained in /usr/share/common-licenses/GPL-2.

License: GPL-3+
 This program is free software; you can redistribute it and/or modify it under
 the terms of the GNU General Public License as published by the Free Software
 Foundation; either version 3 of the License, or (at your option) any later
 version.
 .
 This program is distributed in the hope that it will be useful, but WITHOUT ANY
 WARRANTY; without even the implied warranty of MERCHANTABILITY or FITNESS FOR A
 PARTICULAR PURPOSE.  See the GNU General Public License for more details.
 .
 You should have received a copy of the GNU General Public License along with
 this program.  If not, see <https://www.gnu.org/licenses/>.
 .
 The GNU General Public License v3 text is contained in /usr/share/common-licenses/GPL-3.

License: LGPL-3+
 The GNU Lesser General Public License v3 text is contained in /usr/share/common-licenses/LGPL-3.

"""#
}
