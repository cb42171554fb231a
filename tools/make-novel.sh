#!/bin/sh
# SPDX-License-Identifier: MIT
# A novel as an EPUB for measuring (BENCHMARKS.md, "Reflowable books"): CHAPTERS chapters of
# generated prose (no text downloaded), a table of contents, about 500 pages at 11 pt in a
# 360 x 540 pt page with the defaults. Written with Python's zipfile (Debian's python3).
#
# tools/make-novel.sh OUT.epub [CHAPTERS [PARAGRAPHS]]
set -eu
out=${1:?usage: make-novel.sh OUT.epub [CHAPTERS [PARAGRAPHS]]}
python3 - "$out" "${2:-24}" "${3:-62}" <<'PY'
import random, sys, zipfile
out, chapters, paragraphs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = random.Random(56)
words = ("the paper turned under her thumb and the light of the lamp fell across a page that "
         "smelled of dust and rain while somewhere below the harbour bells rang for the evening "
         "tide keeper lighthouse letter window garden river morning quiet slowly remembered").split()
def paragraph():
    n = rng.randint(60, 140)
    text = " ".join(rng.choice(words) for _ in range(n))
    return "<p>" + text[0].upper() + text[1:] + ".</p>"
z = zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED)
z.writestr(zipfile.ZipInfo("mimetype"), "application/epub+zip", compress_type=zipfile.ZIP_STORED)
z.writestr("META-INF/container.xml", '<?xml version="1.0"?><container version="1.0" '
           'xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile '
           'full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/>'
           '</rootfiles></container>')
items = "".join('<item id="c%d" href="c%d.xhtml" media-type="application/xhtml+xml"/>' % (i, i)
                for i in range(chapters))
spine = "".join('<itemref idref="c%d"/>' % i for i in range(chapters))
z.writestr("OEBPS/content.opf", '<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf"'
           ' version="2.0" unique-identifier="id"><metadata xmlns:dc="http://purl.org/dc/elements'
           '/1.1/"><dc:title>A Generated Novel</dc:title><dc:identifier id="id">pagecurl-novel'
           '</dc:identifier></metadata><manifest>' + items + '<item id="ncx" href="toc.ncx" '
           'media-type="application/x-dtbncx+xml"/></manifest><spine toc="ncx">' + spine +
           '</spine></package>')
nav = "".join('<navPoint id="n%d"><navLabel><text>Chapter %d</text></navLabel><content '
              'src="c%d.xhtml"/></navPoint>' % (i, i + 1, i) for i in range(chapters))
z.writestr("OEBPS/toc.ncx", '<?xml version="1.0"?><ncx xmlns="http://www.daisy.org/z3986/2005/'
           'ncx/" version="2005-1"><navMap>' + nav + '</navMap></ncx>')
for i in range(chapters):
    body = "".join(paragraph() for _ in range(paragraphs))
    z.writestr("OEBPS/c%d.xhtml" % i, '<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/'
               'xhtml"><body><h1>Chapter %d</h1>%s</body></html>' % (i + 1, body))
z.close()
PY
