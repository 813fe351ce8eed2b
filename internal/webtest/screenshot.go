package webtest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// Viewport is the size of the emulated screen in CSS pixels; Mobile turns on
// mobile emulation (meta viewport, overlay scrollbars, touch).
type Viewport struct {
	Width, Height int64
	Mobile        bool
}

// Desktop and Phone are the two sizes the site is checked at.
var (
	Desktop = Viewport{Width: 1280, Height: 900}
	Phone   = Viewport{Width: 390, Height: 844, Mobile: true}
)

// capture loads url in the tab of ctx at the viewport and returns a PNG of
// the whole page (beyond the viewport). The viewport is reset afterwards.
func capture(ctx context.Context, url string, vp Viewport) ([]byte, error) {
	return captureAfter(ctx, url, vp, 0)
}

// captureAfter is capture that waits settle after the page loaded, for
// what scripts draw later (search results fetched after load).
func captureAfter(ctx context.Context, url string, vp Viewport, settle time.Duration) ([]byte, error) {
	return CaptureClicked(ctx, url, vp, settle, "")
}

// CaptureClicked is captureAfter that then clicks every element matching
// the CSS selector click, in document order, and waits settle again before
// the picture, to show what a page looks like once the user opened its
// folded parts. An empty selector clicks nothing; one that matches nothing
// is an error, so a mistyped selector does not pass for a page that has
// nothing to open.
func CaptureClicked(ctx context.Context, url string, vp Viewport, settle time.Duration, click string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, PageTimeout+2*settle)
	defer cancel()
	opts := []chromedp.EmulateViewportOption{chromedp.EmulatePortrait}
	if vp.Mobile {
		opts = append(opts, chromedp.EmulateMobile, chromedp.EmulateTouch)
	}
	if err := chromedp.Do(ctx,
		chromedp.EmulateViewport(vp.Width, vp.Height, opts...),
		chromedp.Navigate(url),
	); err != nil {
		return nil, fmt.Errorf("load %s at %dx%d: %w", url, vp.Width, vp.Height, err)
	}
	if settle > 0 {
		select {
		case <-time.After(settle):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	if click != "" {
		js := fmt.Sprintf(`(() => { const l = document.querySelectorAll(%q); l.forEach(e => e.click()); return l.length; })()`, click)
		n, err := chromedp.Run(ctx, chromedp.Evaluate[int](js))
		if err != nil {
			return nil, fmt.Errorf("click %q on %s: %w", click, url, err)
		}
		if n == 0 {
			return nil, fmt.Errorf("click %q on %s: nothing matches", click, url)
		}
		select {
		case <-time.After(settle):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		return nil, fmt.Errorf("screenshot of %s at %dx%d: %w", url, vp.Width, vp.Height, err)
	}
	if err := chromedp.Do(ctx, chromedp.ResetViewport()); err != nil {
		return nil, fmt.Errorf("reset the viewport after %s: %w", url, err)
	}
	return png, nil
}

// saveScreenshot writes a full-page PNG of url at width x height (desktop
// emulation) to path, creating its folder.
func saveScreenshot(t testing.TB, ctx context.Context, url string, width, height int64, path string) {
	t.Helper()
	png, err := capture(ctx, url, Viewport{Width: width, Height: height})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// EmulateMedia makes the tab of ctx lay pages out for media ("print", or ""
// for the screen) and colour scheme ("dark", "light", or "" for the
// browser's own), until it is called again.
func EmulateMedia(ctx context.Context, media, scheme string) error {
	var features []*emulation.MediaFeature
	if scheme != "" {
		features = append(features, &emulation.MediaFeature{Name: "prefers-color-scheme", Value: scheme})
	}
	_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: media, Features: features})
	return err
}
