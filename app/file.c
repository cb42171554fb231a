#include "file.h"

#include <errno.h>
#include <stdlib.h>

AppFileRead app_file_read(FILE *f, size_t max, char **text, size_t *len)
{
    char *buf = NULL;
    size_t used = 0, cap = 0;
    AppFileRead result = APP_FILE_OK;
    for (;;) {
        if (used == cap) {
            cap = cap ? 2 * cap : 4096;
            char *grown = cap <= max ? realloc(buf, cap) : NULL;
            if (!grown) {
                result = cap <= max ? APP_FILE_NO_MEMORY : APP_FILE_TOO_LARGE;
                break;
            }
            buf = grown;
        }
        errno = 0;
        size_t n = fread(buf + used, 1, cap - used, f);
        used += n;
        if (n == 0)
            break;
    }
    if (result == APP_FILE_OK && ferror(f))
        result = APP_FILE_ERROR;
    if (result != APP_FILE_OK) {
        free(buf);
        buf = NULL, used = 0;
    }
    *text = buf;
    *len = used;
    return result;
}
