/* SPDX-License-Identifier: MIT */
/* libFuzzer target: any bytes as an input trace. The parser must accept or refuse them with a
 * message, never crash, leak or read out of bounds (built with ASan + UBSan). */
#include "../app/trace.h"

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    AppTrace trace;
    char message[512];
    if (app_trace_parse((const char *)data, size, "fuzz", &trace, message, sizeof message))
        app_trace_free(&trace);
    return 0;
}
