/* ctlfile.h: the control files the live daemon writes beside a running job
 * (the pack file, the batch file): a magic first line, then "key value"
 * lines; blank lines and # comments are skipped. This module reads one with
 * a size bound and splits it into lines, handing each key line to the file
 * type's own parser, so each type owns only its keys and checks. Never aborts
 * on bad input: every refusal names FILE:LINE. */
#ifndef MLS_LIVE_CTLFILE_H
#define MLS_LIVE_CTLFILE_H

#include "model/util.h"

#include <stddef.h>

/* One key line (NUL-terminated, trailing white space cut), line number ln;
 * 0, or -1 with the reason in err. */
typedef int (*ctl_line_fn)(char *line, int ln, void *arg, mls_err_t *err);

/* Parses text[0..len) of `path`: refused when empty, over max bytes or holding
 * a NUL ("not a WHAT file"), or when the first line is not `magic`; calls fn
 * for every key line. 0, or -1 with the reason in err. */
int ctl_parse(const char *text, size_t len, size_t max, const char *path, const char *magic,
              const char *what, ctl_line_fn fn, void *arg, mls_err_t *err);

/* Reads path (at most max + 1 bytes, so that a longer file is refused by
 * ctl_parse) into *text (caller frees) and *len: 0, 1 when it does not
 * exist, -1 with the reason in err. */
int ctl_read(const char *path, size_t max, char **text, size_t *len, mls_err_t *err);

#endif
