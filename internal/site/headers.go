package site

// SecurityHeaders are the response headers every file of the site is served
// with: by a static host through the _headers file a build writes, and by
// serve. The policy allows scripts, styles, fonts and fetches from the site
// itself only and no inline script or style, so that text from a case that
// slipped past escaping still could not run; the pages have no inline code
// (the language chooser's script is the asset js/lang.js). Images may also
// be data: URLs, which CSS uses for small icons.
var SecurityHeaders = []Header{
	{"Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
		"font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"},
	{"X-Content-Type-Options", "nosniff"},
	{"Referrer-Policy", "strict-origin-when-cross-origin"},
}

// Header is one response header.
type Header struct{ Name, Value string }
