/* SPDX-License-Identifier: MIT */
#include "pdf_file.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

bool pdf_file_open(PdfFile *pdf, const char *path)
{
    *pdf = (PdfFile){.f = fopen(path, "wb")};
    if (pdf->f)
        fprintf(pdf->f, "%%PDF-1.4\n");
    return pdf->f != NULL;
}

int pdf_file_begin(PdfFile *pdf)
{
    int n = ++pdf->objects;
    if (n >= pdf->most) {
        int most = pdf->most ? 2 * pdf->most : 16;
        long *at = realloc(pdf->at, sizeof *at * (size_t)most);
        if (at)
            pdf->at = at, pdf->most = most;
    }
    if (n < pdf->most)
        pdf->at[n] = ftell(pdf->f);
    else
        pdf->failed = true;
    fprintf(pdf->f, "%d 0 obj\n", n);
    return n;
}

void pdf_file_end(PdfFile *pdf)
{
    fprintf(pdf->f, "\nendobj\n");
}

int pdf_file_object(PdfFile *pdf, const char *format, ...)
{
    int n = pdf_file_begin(pdf);
    va_list args;
    va_start(args, format);
    vfprintf(pdf->f, format, args);
    va_end(args);
    pdf_file_end(pdf);
    return n;
}

int pdf_file_stream(PdfFile *pdf, const char *dictionary, const void *bytes, size_t size)
{
    int n = pdf_file_begin(pdf);
    fprintf(pdf->f, "<< %s/Length %zu >>\nstream\n", dictionary, size);
    fwrite(bytes, 1, size, pdf->f);
    fprintf(pdf->f, "\nendstream");
    pdf_file_end(pdf);
    return n;
}

bool pdf_file_close(PdfFile *pdf)
{
    long xref = ftell(pdf->f);
    int size = pdf->objects + 1;
    fprintf(pdf->f, "xref\n0 %d\n0000000000 65535 f \n", size);
    for (int k = 1; k < size && !pdf->failed; k++)
        fprintf(pdf->f, "%010ld 00000 n \n", pdf->at[k]);
    fprintf(pdf->f, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%ld\n%%%%EOF\n", size, xref);
    bool ok = !pdf->failed && !ferror(pdf->f);
    ok = fclose(pdf->f) == 0 && ok;
    free(pdf->at);
    *pdf = (PdfFile){0};
    return ok;
}

bool pdf_file_one_page(const char *path, int count, const char *dictionary, const void *content,
                       size_t size)
{
    PdfFile pdf;
    if (!pdf_file_open(&pdf, path))
        return false;
    pdf_file_object(&pdf, "<< /Type /Catalog /Pages 2 0 R >>");
    pdf_file_object(&pdf, "<< /Type /Pages /Count %d /Kids [3 0 R] >>", count);
    pdf_file_object(&pdf,
                    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 280] /Contents 4 0 R >>");
    pdf_file_stream(&pdf, dictionary, content, size);
    return pdf_file_close(&pdf);
}

bool pdf_file_text(const char *path, int pages, const char *const *text)
{
    return pdf_file_text_links(path, pages, text, NULL, 0);
}

void pdf_file_page_tree(PdfFile *pdf, int pages, int first_kid, int step)
{
    pdf_file_begin(pdf);
    fprintf(pdf->f, "<< /Type /Pages /Count %d /Kids [", pages);
    for (int p = 0; p < pages; p++)
        fprintf(pdf->f, " %d 0 R", first_kid + step * p);
    fprintf(pdf->f, " ] >>");
    pdf_file_end(pdf);
}

bool pdf_file_text_links(const char *path, int pages, const char *const *text, const PdfLink *links,
                         int count)
{
    PdfFile pdf;
    if (pages < 1 || !pdf_file_open(&pdf, path))
        return false;
    /* objects: 1 the catalogue, 2 the page tree, 3 the font, then each page and its content,
     * then the links */
    int first_link = 4 + 2 * pages;
    pdf_file_object(&pdf, "<< /Type /Catalog /Pages 2 0 R >>");
    pdf_file_page_tree(&pdf, pages, 4, 2);
    pdf_file_object(&pdf, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
    bool ok = true;
    for (int p = 0; p < pages; p++) {
        pdf_file_begin(&pdf);
        fprintf(pdf.f,
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 280] /Resources << /Font << /F1 "
                "3 0 R >> >> /Contents %d 0 R /Annots [",
                5 + 2 * p);
        for (int k = 0; k < count; k++)
            if (links[k].page == p + 1)
                fprintf(pdf.f, " %d 0 R", first_link + k);
        fprintf(pdf.f, " ] >>");
        pdf_file_end(&pdf);
        const char *t = text && text[p] ? text[p] : "";
        size_t cap = 64 + 8 * strlen(t);
        char *content = malloc(cap);
        if (!content) {
            ok = false;
            break;
        }
        size_t n = (size_t)snprintf(content, cap, "BT /F1 12 Tf 20 250 Td 20 TL\n");
        const char *line = t;
        while (*line) {
            const char *end = strchr(line, '\n');
            size_t len = end ? (size_t)(end - line) : strlen(line);
            n += (size_t)snprintf(content + n, cap - n, "(%.*s) Tj T*\n", (int)len, line);
            line += len + (end ? 1 : 0);
        }
        n += (size_t)snprintf(content + n, cap - n, "ET");
        pdf_file_stream(&pdf, "", content, n);
        free(content);
    }
    for (int k = 0; ok && k < count; k++) {
        const PdfLink *l = &links[k];
        pdf_file_begin(&pdf);
        fprintf(pdf.f, "<< /Type /Annot /Subtype /Link /Rect [%g %g %g %g] /Border [0 0 0] ",
                l->rect[0], l->rect[1], l->rect[2], l->rect[3]);
        if (l->uri)
            fprintf(pdf.f, "/A << /S /URI /URI (%s) >> >>", l->uri);
        else
            fprintf(pdf.f, "/Dest [%d 0 R /Fit] >>", 4 + 2 * (l->target - 1));
        pdf_file_end(&pdf);
    }
    return pdf_file_close(&pdf) && ok;
}

bool pdf_file_links_book(const char *path)
{
    const char *text[6] = {"one", "two", "three", "four", "five", "six"};
    const PdfLink links[] = {
        {1, {40.0f, 80.0f, 160.0f, 200.0f}, 4, NULL},
        {1, {20.0f, 20.0f, 100.0f, 50.0f}, 0, "https://example.org/pagecurl"},
        {4, {40.0f, 80.0f, 160.0f, 200.0f}, 6, NULL},
    };
    return pdf_file_text_links(path, 6, text, links, (int)(sizeof links / sizeof links[0]));
}
