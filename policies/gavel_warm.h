/* gavel_warm.h: a GLPK basis remembered across Gavel's recomputes, by job id
 * (gavel_warm.c; private to gavel_lp.c, the public handle is gl_warm_t in
 * gavel_lp.h).
 *
 * Promises: gl_warm_apply gives the problem a basis with exactly as many
 * basic variables as rows (GLPK rejects others), built from the statuses
 * the memo holds for the jobs, types and z it knows; new jobs start with
 * their rows basic and columns at zero. Whether that basis is nonsingular
 * is GLPK's to find out (the caller falls back to the standard basis). */
#ifndef MLS_GAVEL_WARM_H
#define MLS_GAVEL_WARM_H

#include "policies/gavel_lp.h"

#include <glpk.h>

/* The problem's layout (gavel_lp.c): X[r][t] in column 1 + r * T + t, z in
 * column z_col (0: none), job j's time row 1 + j, type t's capacity row
 * 1 + J + t, job j's link row link_row + j (0: none). Returns 1 when a
 * basis was given, 0 when the memo is empty or of another shape. */
int gl_warm_apply(gl_warm_t *w, glp_prob *p, const gl_lp_t *lp, int z_col, int link_row);
/* Remembers p's current basis for lp's jobs. */
void gl_warm_save(gl_warm_t *w, glp_prob *p, const gl_lp_t *lp, int z_col, int link_row);

#endif
