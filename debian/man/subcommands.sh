#!/bin/sh
# The section COMMANDES of attestation-admin's manual page, for help2man's --include: each
# subcommand its own --help, as the program prints it at 78 columns (debian/rules).
#
#   debian/man/subcommands.sh bin/attestation-admin
set -eu
program=$1
echo "[COMMANDES]"
COLUMNS=78 "$program" --help | sed -n '/^SOUS-COMMANDES :$/,/^$/p' |
  sed -n 's/^  \([a-z][a-z-]*\)\( .*\)\{0,1\}$/\1/p' | while read -r command; do
  printf '.SS "%s"\n.nf\n' "attestation-admin $command"
  # roff: a backslash is \e, and a line may not start with a dot or an apostrophe.
  COLUMNS=78 "$program" "$command" --help | sed -e 's/\\/\\e/g' -e "s/^[.']/\\\\\\&&/"
  printf '.fi\n'
done
