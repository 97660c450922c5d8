#!/bin/sh
# help2man's view of a program (debian/rules links it as man/view/PROGRAM): the program's own
# --help, one line a paragraph (COLUMNS: man wraps it again), with the three headings help2man
# knows only in English put back in English, so that it lays out the synopsis, the examples and
# the options; debian/rules then writes the page's headings in French.
program=$(basename "$0")
COLUMNS=1000 "$(dirname "$0")/../../bin/$program" "$@" |
  sed 's/^UTILISATION : /Usage: /; s/^Exemples :$/Examples:/; s/^OPTIONS :$/Options:/'
