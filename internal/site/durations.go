package site

import (
	"fmt"
	"html"
	"html/template"
	"math"
	"slices"
	"strconv"
	"strings"

	"incidentlib/internal/cases"
	"incidentlib/internal/l10n"
	"incidentlib/internal/urls"
)

// durationChart is how long a set of cases took to detect or to resolve,
// drawn as a distribution rather than one number: every case whose
// source gives the time is a mark on a logarithmic time axis, linking its
// case, with the median drawn across them and "known for N of M cases"
// beside it. The SVG is drawn here, by the build: no script, and its
// colours are the stylesheet's, so it follows dark mode and print.
type durationChart struct {
	ID      string // the caption's id, which the drawing is labelled by
	Title   string
	Median  string // "" when no case knows the time
	Note    string // known for N of M cases
	Unknown string // the word for a median no case gives
	SVG     template.HTML
}

// The drawing's size in its own units; it scales to the width of its box.
const (
	distWidth  = 280
	distPad    = 14  // left and right, so that the end labels fit
	distStep   = 9   // between stacked marks
	distRadius = 4.2 // of a mark
	distAxis   = 28  // below the marks: the axis and its labels
	distTop    = 20  // above the marks: the median's label
	distStack  = 12  // marks stacked in one column at most; more overlap the top one
	// distLinked is how many marks a chart draws one by one at most,
	// each linking its case: a larger set is drawn as columns whose
	// height counts its cases, so that a topic of thousands of cases
	// keeps a page of a sensible size and a keyboard path through it
	// (its case list links every case anyway).
	distLinked = 200
)

// distTicks are the times the axis names, in minutes.
var distTicks = []int{1, 10, 60, 6 * 60, 24 * 60, 7 * 24 * 60, 30 * 24 * 60}

// durationCharts draws the times to detect and to resolve of cs, for the
// page p (in its language, with its links). idPrefix keeps the captions'
// ids apart from the page's others.
func (p *pageView) durationCharts(cs []*cases.Case, idPrefix string) []durationChart {
	spans := []struct {
		id, title string
		get       func(*cases.Case) *cases.Duration
	}{
		{"detect", p.T("stats.dist_detect"), func(c *cases.Case) *cases.Duration { return c.Timeline.DetectedAfter }},
		{"resolve", p.T("stats.dist_resolve"), func(c *cases.Case) *cases.Duration { return c.Timeline.ResolvedAfter }},
	}
	var out []durationChart
	for _, sp := range spans {
		var marks []distMark
		for _, c := range cs {
			if d := sp.get(c); d != nil {
				marks = append(marks, distMark{c: c, minutes: int(*d)})
			}
		}
		ch := durationChart{ID: idPrefix + sp.id, Title: sp.title,
			Note: fmt.Sprintf(p.T("stats.known_of"), l10n.Number(len(marks)), l10n.Number(len(cs)))}
		if len(marks) > 0 {
			med := median(marks)
			ch.Median = l10n.Duration(p.Lang, med)
			ch.SVG = p.drawDist(marks, med, ch)
		}
		out = append(out, ch)
	}
	return out
}

// distMark is one case on a chart.
type distMark struct {
	c       *cases.Case
	minutes int
}

// median is the median of the marks' minutes, the lower of the middle two
// for an even count, as library's statistics take it.
func median(marks []distMark) int {
	m := make([]int, len(marks))
	for i, mk := range marks {
		m[i] = mk.minutes
	}
	slices.Sort(m)
	return m[(len(m)-1)/2]
}

// distRange returns the ticks of the axis's ends: the tick at or below the
// least time of marks and the one at or above the greatest, at least a
// tenfold apart.
func distRange(marks []distMark) (lo, hi int) {
	least, most := marks[0].minutes, marks[0].minutes
	for _, m := range marks {
		least, most = min(least, m.minutes), max(most, m.minutes)
	}
	lo, hi = distTicks[0], distTicks[len(distTicks)-1]
	for _, t := range distTicks {
		if t <= max(least, 1) {
			lo = t
		}
	}
	for i := len(distTicks) - 1; i >= 0; i-- {
		if distTicks[i] >= most {
			hi = distTicks[i]
		}
	}
	return lo, max(hi, most, lo*10)
}

// drawColumns draws, in place of too many marks to link one by one, a
// column of the width of a mark for every place that has cases (cols, by
// column, counts them), as high as its share of the fullest one, rows
// marks high at most, standing on base.
func (p *pageView) drawColumns(b *strings.Builder, cols map[int]int, rows int, base float64) {
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }
	cw := 2*distRadius + 0.6
	most := 0
	keys := make([]int, 0, len(cols))
	for col, n := range cols {
		most = max(most, n)
		keys = append(keys, col)
	}
	slices.Sort(keys)
	b.WriteString(`<g class="columns" aria-hidden="true">`)
	for _, col := range keys {
		h := max(1.5, float64(cols[col])/float64(most)*float64(rows)*distStep)
		fmt.Fprintf(b, `<rect x="%s" y="%s" width="%s" height="%s"><title>%s</title></rect>`,
			f(float64(col)*cw), f(base-h), f(cw-0.6), f(h), html.EscapeString(l10n.Cases(p.Lang, cols[col])))
	}
	b.WriteString(`</g>`)
}

// drawDist draws the marks and the median on a log axis from the tick at
// or below the least time to the tick at or above the greatest.
func (p *pageView) drawDist(marks []distMark, med int, ch durationChart) template.HTML {
	lo, hi := distRange(marks)
	x := func(minutes int) float64 {
		f := (math.Log(float64(max(minutes, lo))) - math.Log(float64(lo))) / (math.Log(float64(hi)) - math.Log(float64(lo)))
		return distPad + f*(distWidth-2*distPad)
	}
	// Marks in one column of the width of a mark stack upwards.
	cols := map[int]int{}
	var ps []placedMark
	rows := 1
	for _, m := range marks {
		cx := x(m.minutes)
		col := int(cx / (2*distRadius + 0.6))
		n := cols[col]
		cols[col] = n + 1
		row := min(n, distStack-1)
		rows = max(rows, row+1)
		ps = append(ps, placedMark{m, cx, float64(row)})
	}
	large := len(marks) > distLinked
	if large {
		rows = distStack
	}
	base := float64(distTop) + float64(rows)*distStep
	height := int(base) + distAxis
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="dist" role="group" aria-labelledby="%s" viewBox="0 0 %d %d" width="100%%" height="%d" preserveAspectRatio="xMidYMid meet">`,
		ch.ID, distWidth, height, height)
	// The axis and its ticks.
	fmt.Fprintf(&b, `<g class="axis" aria-hidden="true"><line x1="%d" y1="%s" x2="%d" y2="%s"></line>`, distPad, f(base+4), distWidth-distPad, f(base+4))
	for _, t := range distTicks {
		if t < lo || t > hi {
			continue
		}
		tx := f(x(t))
		fmt.Fprintf(&b, `<line x1="%s" y1="%s" x2="%s" y2="%s"></line><text x="%s" y="%s" text-anchor="middle">%s</text>`,
			tx, f(base+4), tx, f(base+8), tx, f(base+20), html.EscapeString(l10n.Duration(p.Lang, t)))
	}
	b.WriteString(`</g>`)
	// The median, across the marks, named above them.
	mx := x(med)
	anchor := "middle"
	switch {
	case mx < distWidth*0.2:
		anchor = "start"
	case mx > distWidth*0.8:
		anchor = "end"
	}
	fmt.Fprintf(&b, `<g class="median" aria-hidden="true"><line x1="%s" y1="%d" x2="%s" y2="%s"></line><text x="%s" y="%d" text-anchor="%s">%s</text></g>`,
		f(mx), distTop-4, f(mx), f(base+4), f(mx), distTop-7, anchor, html.EscapeString(fmt.Sprintf(p.T("stats.median_is"), ch.Median)))
	if large {
		p.drawColumns(&b, cols, rows, base)
		b.WriteString(`</svg>`)
		return template.HTML(b.String())
	}
	p.drawMarks(&b, ps, base)
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// placedMark is a mark placed on a chart: x across, y the row it stacks in.
type placedMark struct {
	distMark
	x, y float64
}

// drawMarks draws the marks ps on base, each a circle linking its case.
// It writes piece by piece, not through fmt, since every case is a mark
// on both charts of each of its topics (fmt's boxing and the numbers'
// strings were two thirds of the charts' time).
func (p *pageView) drawMarks(b *strings.Builder, ps []placedMark, base float64) {
	b.Grow(len(ps) * 200)
	radius := strconv.FormatFloat(distRadius, 'f', 1, 64)
	var num []byte
	for _, m := range ps {
		cy := base - distRadius - m.y*distStep
		label := html.EscapeString(m.c.ID + ": " + l10n.Duration(p.Lang, m.minutes))
		b.WriteString(`<a href="`)
		b.WriteString(html.EscapeString(p.Link(urls.Case(p.Lang, m.c.ID))))
		b.WriteString(`" aria-label="`)
		b.WriteString(label)
		b.WriteString(`"><circle cx="`)
		num = strconv.AppendFloat(num[:0], m.x, 'f', 1, 64)
		b.Write(num)
		b.WriteString(`" cy="`)
		num = strconv.AppendFloat(num[:0], cy, 'f', 1, 64)
		b.Write(num)
		b.WriteString(`" r="`)
		b.WriteString(radius)
		b.WriteString(`"><title>`)
		b.WriteString(label)
		b.WriteString(`</title></circle></a>`)
	}
}
