// Package sigtest makes signature PNGs for the tests of the packages
// that take or print an in-person acceptance (app, app/report,
// apiserver, localstore, sync): a drawn one, and a hostile one whose
// header declares a size its bytes do not hold.
package sigtest

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/png"
	"math"
)

// Drawn is a w×h PNG with one wavy stroke, 3 pixels thick, on white, as
// the present screen's signature pad makes.
func Drawn(w, h int) []byte {
	img := image.NewGray(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = 0xff
	}
	for x := w / 20; x < w-w/20; x++ {
		y := h/2 + int(float64(h)/4*math.Sin(float64(x)/60))
		for dy := -1; dy <= 1; dy++ {
			img.SetGray(x, y+dy, color.Gray{Y: 0})
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		panic(err) // encoding to memory does not fail
	}
	return buf.Bytes()
}

// DrawnBase64 is Drawn in standard base64, as an edit carries it.
func DrawnBase64(w, h int) string {
	return base64.StdEncoding.EncodeToString(Drawn(w, h))
}

// Hostile is a PNG of size bytes whose header declares w×h RGBA pixels:
// a valid signature, IHDR chunk with its CRC, then an IDAT chunk of
// filler. Reading its header is cheap; decoding it would allocate
// w×h×4 bytes.
func Hostile(w, h uint32, size int) []byte {
	var buf bytes.Buffer
	buf.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8], ihdr[9] = 8, 6 // 8-bit RGBA
	chunk(&buf, "IHDR", ihdr)
	if n := size - buf.Len() - 12; n > 0 {
		chunk(&buf, "IDAT", bytes.Repeat([]byte{0x78}, n))
	}
	return buf.Bytes()
}

func chunk(buf *bytes.Buffer, typ string, data []byte) {
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(data)))
	buf.Write(n[:])
	crc := crc32.NewIEEE()
	crc.Write([]byte(typ))
	crc.Write(data)
	buf.WriteString(typ)
	buf.Write(data)
	binary.BigEndian.PutUint32(n[:], crc.Sum32())
	buf.Write(n[:])
}
