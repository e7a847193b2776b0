package sigtest

import (
	"bytes"
	"image/png"
	"testing"
)

func TestHostileDeclaresItsSize(t *testing.T) {
	b := Hostile(100000, 100000, 200<<10)
	if len(b) != 200<<10 {
		t.Errorf("%d bytes, want %d", len(b), 200<<10)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(b))
	if err != nil || cfg.Width != 100000 || cfg.Height != 100000 {
		t.Errorf("header reads %d×%d, %v; want 100000×100000", cfg.Width, cfg.Height, err)
	}
}

func TestDrawnIsAPNGWithInk(t *testing.T) {
	img, err := png.Decode(bytes.NewReader(Drawn(800, 240)))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 800 || b.Dy() != 240 {
		t.Errorf("size %v, want 800×240", b)
	}
	ink := 0
	for y := range 240 {
		if r, _, _, _ := img.At(400, y).RGBA(); r == 0 {
			ink++
		}
	}
	if ink != 3 {
		t.Errorf("column 400 has %d inked pixels, want the stroke's 3", ink)
	}
}
