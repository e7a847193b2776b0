//go:build ignore

// gen_icon draws the app icon (icon.png): a blue tile with a white
// proposal page and a green "synced" badge. Run: go run gen_icon.go
package main

import (
	"image"
	"image/color"
	"image/png"
	"log"
	"math"
	"os"
)

const size = 512

func main() {
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	blueTop := color.NRGBA{0x2f, 0x6f, 0xd6, 0xff}
	blueBottom := color.NRGBA{0x1b, 0x3f, 0x8f, 0xff}
	white := color.NRGBA{0xff, 0xff, 0xff, 0xff}
	fold := color.NRGBA{0xc9, 0xd6, 0xec, 0xff}
	line := color.NRGBA{0x9a, 0xa8, 0xc2, 0xff}
	green := color.NRGBA{0x2e, 0xb8, 0x6b, 0xff}
	for y := 0; y < size; y++ {
		for x := 0; x < size; x++ {
			fx, fy := float64(x)+0.5, float64(y)+0.5
			if a := roundedRect(fx, fy, 16, 16, size-16, size-16, 96); a > 0 {
				t := fy / size
				c := mix(blueTop, blueBottom, t)
				blend(img, x, y, c, a)
			}
			// The page, with its top-right corner folded.
			if a := roundedRect(fx, fy, 136, 96, 376, 416, 18); a > 0 && !(fx > 316 && fy < 156 && fx-316 > fy-96) {
				blend(img, x, y, white, a)
			}
			if fx > 316 && fx < 376 && fy > 96 && fy < 156 && fx-316 <= fy-96 {
				blend(img, x, y, fold, 1)
			}
			for i, w := range []float64{170, 160, 120, 150} {
				top := 190 + float64(i)*44
				if a := roundedRect(fx, fy, 176, top, 176+w, top+18, 9); a > 0 {
					blend(img, x, y, line, a)
				}
			}
			// The badge: a green disc with a white tick.
			d := math.Hypot(fx-368, fy-392)
			if a := clamp(84 - d); a > 0 {
				blend(img, x, y, white, a)
			}
			if a := clamp(70 - d); a > 0 {
				blend(img, x, y, green, a)
			}
			if a := clamp(11 - segDist(fx, fy, 334, 394, 358, 418)); a > 0 {
				blend(img, x, y, white, a)
			}
			if a := clamp(11 - segDist(fx, fy, 358, 418, 404, 364)); a > 0 {
				blend(img, x, y, white, a)
			}
		}
	}
	f, err := os.Create("icon.png")
	if err != nil {
		log.Fatal(err)
	}
	if err := png.Encode(f, img); err != nil {
		log.Fatal(err)
	}
	if err := f.Close(); err != nil {
		log.Fatal(err)
	}
}

func clamp(v float64) float64 { return math.Max(0, math.Min(1, v)) }

// roundedRect is the coverage (0..1) of a point by a rounded rectangle.
func roundedRect(x, y, x0, y0, x1, y1, r float64) float64 {
	cx := math.Max(x0+r, math.Min(x, x1-r))
	cy := math.Max(y0+r, math.Min(y, y1-r))
	return clamp(r - math.Hypot(x-cx, y-cy) + 0.5)
}

func segDist(px, py, ax, ay, bx, by float64) float64 {
	dx, dy := bx-ax, by-ay
	t := math.Max(0, math.Min(1, ((px-ax)*dx+(py-ay)*dy)/(dx*dx+dy*dy)))
	return math.Hypot(px-(ax+t*dx), py-(ay+t*dy))
}

func mix(a, b color.NRGBA, t float64) color.NRGBA {
	l := func(u, v uint8) uint8 { return uint8(float64(u) + (float64(v)-float64(u))*t) }
	return color.NRGBA{l(a.R, b.R), l(a.G, b.G), l(a.B, b.B), 0xff}
}

func blend(img *image.NRGBA, x, y int, c color.NRGBA, a float64) {
	o := img.NRGBAAt(x, y)
	oa := float64(o.A) / 255
	na := a + oa*(1-a)
	if na == 0 {
		return
	}
	ch := func(s, d uint8) uint8 { return uint8((float64(s)*a + float64(d)*oa*(1-a)) / na) }
	img.SetNRGBA(x, y, color.NRGBA{ch(c.R, o.R), ch(c.G, o.G), ch(c.B, o.B), uint8(na * 255)})
}
