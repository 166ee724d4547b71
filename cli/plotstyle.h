/* plotstyle.h: one fixed look per policy, the same in every figure and every
 * experiment.
 *
 * A reader learns "fifo is the black solid line with dots" once. So a
 * policy's style is a function of its name only (never of its position in a
 * figure): a table puts each known policy in a family, the family gives the
 * hue (Okabe & Ito's palette for colour blindness, without its yellow, which
 * vanishes on white paper), the member's rank in its family gives the dash
 * pattern and the marker, so a figure printed in grey still tells members
 * apart. A name the table does not know (an exec: policy, a new one) is grey,
 * with a dash and marker hashed from its name: stable, but not a family. */
#ifndef MLS_PLOTSTYLE_H
#define MLS_PLOTSTYLE_H

typedef struct plot_style {
    const char *family; /* "Gavel LPs", ...; "other" for unknown names */
    const char *color;  /* "#RRGGBB" */
    const char *dash;   /* a gnuplot dashtype: "1" solid or "(a,b,...)" */
    int point;          /* gnuplot point type (cairo and svg terminals) */
    int order;          /* family * 16 + rank: figures list families together */
} plot_style_t;

plot_style_t plot_style(const char *policy);

#endif
