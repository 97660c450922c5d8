#!/usr/bin/python3
"""Copies the authoritative licence files of this machine into Sources/Licenses/Texts/ as plain
files, byte for byte; Package.swift embeds that folder in the Licenses module (.embedInCode). Run it
after a Debian or package update makes LicensesTests fail, then review the diff. Texts/ ends up
holding exactly the files written here: any other file in it is removed.

The Swift packages are read from a build folder's checkouts (CHECKOUTS, default .build/checkouts:
run `swift build` first). The fiat-crypto licence is not in swift-crypto (its vendoring script
copies BoringSSL's third_party/fiat sources without their LICENSE): it is read from a BoringSSL
git repository (BORINGSSL_GIT, a clone of https://boringssl.googlesource.com/boringssl) at the
revision swift-crypto's hash.txt names. Without BORINGSSL_GIT the stored copy is kept, and said
so; LicensesTests checks that it was taken at that revision."""
import os, subprocess, sys

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
out = os.path.join(root, 'Sources/Licenses/Texts')
os.makedirs(out, exist_ok=True)
checkouts = os.environ.get('CHECKOUTS', os.path.join(root, '.build/checkouts'))
boring = os.path.join(checkouts, 'swift-crypto/Sources/CCryptoBoringSSL')
boring_git = os.environ.get('BORINGSSL_GIT')

def read(path):
    with open(path, 'rb') as f:
        return f.read()

def header_block(path):
    """The licence header of a BoringSSL source: up to the end of its first comment."""
    t = read(path)
    end = t.index(b'*/') + 2
    return t[:end] + b'\n'

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

def boringssl_revision():
    with open(os.path.join(boring, 'hash.txt')) as f:
        return f.read().split()[-1]

def fiat_licence():
    """BoringSSL's third_party/fiat/LICENSE at the vendored revision, or None without a repository."""
    if not boring_git:
        return None
    return subprocess.run(['git', '-C', boring_git, 'show', boringssl_revision() + ':third_party/fiat/LICENSE'],
                          check=True, capture_output=True).stdout

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
texts['BoringSSL-ISC'] = header_block(boring + '/crypto/curve25519/curve25519.cc')
texts['BoringSSL-OpenSSL'] = header_block(boring + '/crypto/fipsmodule/modes/ofb.cc.inc')
texts['BoringSSL-SSLeay'] = header_block(boring + '/crypto/md5/md5.cc')
for pkg in ['swift-crypto', 'swift-asn1', 'swift-log', 'swift-metrics']:
    texts['NOTICE-' + pkg] = read(f'{checkouts}/{pkg}/NOTICE.txt')
texts['MIT-SwiftCSV'] = read(f'{checkouts}/SwiftCSV/LICENSE')
texts['MIT-formulaire'] = ministry_licence()

kept = set()
fiat = fiat_licence()
if fiat is None:
    if not os.path.exists(os.path.join(out, 'MIT-fiat-crypto.txt')):
        sys.exit('MIT-fiat-crypto.txt is missing: set BORINGSSL_GIT to a BoringSSL clone to read it')
    kept.add('MIT-fiat-crypto.txt')
    print('MIT-fiat-crypto: kept as stored (set BORINGSSL_GIT to a BoringSSL clone to read it again at '
          f'revision {boringssl_revision()})', file=sys.stderr)
else:
    texts['MIT-fiat-crypto'] = fiat

total = 0
for name, text in texts.items():
    text.decode('utf-8')  # embed-licence-texts, which compiles them in, refuses anything else
    with open(os.path.join(out, name + '.txt'), 'wb') as f:
        f.write(text)
    total += len(text)
    print(f'{name:28} {len(text):7}')
print('total', total)

written = {name + '.txt' for name in texts} | kept
for stale in sorted(set(os.listdir(out)) - written):
    os.remove(os.path.join(out, stale))
    print('removed', stale)
