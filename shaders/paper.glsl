// What the page shader and the edge shader share: the ambient share of the light and the gutter,
// so that a page and the block under it are lit alike.
#ifndef PAGECURL_PAPER_GLSL
#define PAGECURL_PAPER_GLSL

const float AMBIENT = 0.30;

// The gutter: paper bends down into the binding, so the light reaches less of it. A soft
// darkening over the first few percent of the page from the spine, on every page.
const float GUTTER_DEPTH = 0.45; // darkening at the spine itself
const float GUTTER_WIDTH = 0.06; // e-folding distance, in page widths

// The gutter's darkening at distance x from the spine, on a page `width` wide (world units).
float paper_gutter(float x, float width)
{
    return 1.0 - GUTTER_DEPTH * exp(-x / (GUTTER_WIDTH * width));
}

#endif
