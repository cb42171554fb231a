/* SPDX-License-Identifier: MIT */
/* libFuzzer target: any bytes as a notebook. The parser must accept or refuse them with a
 * message, never crash, leak or read out of bounds (built with ASan + UBSan), and a refused
 * notebook leaves no strokes behind. */
#include "../app/notebook.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    MeshInk ink;
    if (!mesh_ink_init(&ink, 16))
        return 0;
    char message[512];
    if (!app_notebook_parse((const char *)data, size, "fuzz", &ink, message, sizeof message) &&
        mesh_ink_stroke_count(&ink) != 0)
        abort(); /* a refused notebook must leave the ink empty */
    mesh_ink_free(&ink);
    return 0;
}
