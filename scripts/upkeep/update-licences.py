#!/usr/bin/python3
"""Copies the authoritative licence files of this machine into Sources/Licenses/Texts/ as plain
files, byte for byte; the EmbedLicenceTexts plugin compiles that folder into the Licenses module.
Run it after a Debian or package update makes LicensesTests fail, then review the diff. Texts/ ends up
holding exactly the files written here: any other file in it is removed.

The Swift packages are read from a build folder's checkouts (CHECKOUTS, default .build/checkouts:
run `swift build` first)."""
import os

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
out = os.path.join(root, 'Sources/Licenses/Texts')
os.makedirs(out, exist_ok=True)
checkouts = os.environ.get('CHECKOUTS', os.path.join(root, '.build/checkouts'))

def read(path):
    with open(path, 'rb') as f:
        return f.read()

def ministry_licence():
    """../shared/reference/official-LICENCE.txt from the checkout, or from the folder holding the
    worktrees (a worktree of the project is one level deeper)."""
    directory = os.path.dirname(root)
    while True:
        path = os.path.join(directory, 'shared/reference/official-LICENCE.txt')
        if os.path.exists(path) or directory == '/':
            return read(path)
        directory = os.path.dirname(directory)

def icu_from_node():
    """ICU's licence as Node.js reproduces it, between two `  \"\"\"` lines, without its indent."""
    lines = read('/usr/share/doc/nodejs/LICENSE').split(b'\n')
    start = lines.index(b'- ICU, located at deps/icu-small, is licensed as follows:')
    assert lines[start + 1] == b'  """'
    body = []
    for line in lines[start + 2:]:
        if line == b'  """':
            break
        assert line == b'' or line.startswith(b'    '), line
        body.append(line[4:])
    return b'\n'.join(body) + b'\n'

# file name (the text's id in Sources/Licenses/Licences.swift) -> bytes
texts = {}
for lic in ['LGPL-2', 'LGPL-2.1', 'LGPL-3', 'GPL-1', 'GPL-2', 'GPL-3', 'Apache-2.0', 'MPL-1.1', 'CC0-1.0', 'Artistic']:
    texts[lic] = read('/usr/share/common-licenses/' + lic)
texts['Apache-2.0-Swift'] = read('/opt/swift/usr/share/swift/LICENSE.txt')
for pkg in ['libmicrohttpd12', 'libhpdf-2.3.0', 'libqrencode4', 'libpng16-16', 'zlib1g', 'libgnutls30',
            'fonts-dejavu-core', 'libnettle8', 'libgmp10', 'libtasn1-6', 'libidn2-0', 'libunistring2',
            'libp11-kit0', 'libffi8', 'libharfbuzz0b', 'libfreetype6', 'libglib2.0-0', 'libgraphite2-3',
            'libbrotli1', 'libpcre2-8-0', 'node-qrcode-generator', 'libcairo2', 'libpixman-1-0', 'libfontconfig1',
            'libexpat1', 'libx11-6', 'libxext6', 'libxrender1', 'libxcb1', 'libxau6', 'libxdmcp6', 'libbsd0', 'libmd0',
            'fonts-urw-base35']:
    texts['Debian-' + pkg] = read(f'/usr/share/doc/{pkg}/copyright')
texts['ICU'] = icu_from_node()
for pkg in ['swift-log', 'swift-metrics']:
    texts['NOTICE-' + pkg] = read(f'{checkouts}/{pkg}/NOTICE.txt')
texts['MIT-SwiftCSV'] = read(f'{checkouts}/SwiftCSV/LICENSE')
texts['MIT-formulaire'] = ministry_licence()

total = 0
for name, text in texts.items():
    text.decode('utf-8')  # embed-licence-texts, which compiles them in, refuses anything else
    with open(os.path.join(out, name + '.txt'), 'wb') as f:
        f.write(text)
    total += len(text)
    print(f'{name:28} {len(text):7}')
print('total', total)

written = {name + '.txt' for name in texts}
for stale in sorted(set(os.listdir(out)) - written):
    os.remove(os.path.join(out, stale))
    print('removed', stale)
