package app

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"strings"
)

// Fixed-point helpers shared by Money, Quantity and Rate. Every value is an
// int64 count of the type's smallest unit, so arithmetic is exact and
// rounding happens only where a rule says it does.

var errOverflow = errors.New("value out of range")

// errExponent: 1e2 is refused rather than read, so that what a client
// sends is stored exactly as written or refused.
var errExponent = errors.New("exponent notation is not accepted")

// mulDivRound returns a*b/d rounded half away from zero. The product is
// taken in 128 bits so that, for example, a price times a quantity never
// wraps before the division brings it back into range.
func mulDivRound(a, b, d int64) int64 {
	if d == 0 {
		panic("bug: mulDivRound by zero")
	}
	neg := (a < 0) != (b < 0) != (d < 0)
	ua, ub, ud := abs64(a), abs64(b), abs64(d)
	hi, lo := bits.Mul64(ua, ub)
	if hi >= ud {
		panic(fmt.Sprintf("bug: fixed-point overflow in %d*%d/%d", a, b, d))
	}
	q, r := bits.Div64(hi, lo, ud)
	// Half away from zero: round up when the remainder is at least half of d.
	if r >= ud-r {
		q++
	}
	if q > math.MaxInt64 {
		panic(fmt.Sprintf("bug: fixed-point overflow in %d*%d/%d", a, b, d))
	}
	if neg {
		return -int64(q)
	}
	return int64(q)
}

func abs64(v int64) uint64 {
	if v < 0 {
		return uint64(-v)
	}
	return uint64(v)
}

var pow10 = [...]int64{1, 10, 100, 1000, 10000, 100000, 1000000}

// parseFixed reads a plain decimal ("-12.5", "3", "0.0001") into units of
// 10^-places. More fractional digits than places is an error rather than a
// silent rounding: the caller sent a value the type cannot hold.
func parseFixed(s string, places int) (int64, error) {
	orig := s
	if s == "" {
		return 0, fmt.Errorf("empty number")
	}
	neg := false
	switch s[0] {
	case '-':
		neg, s = true, s[1:]
	case '+':
		s = s[1:]
	}
	intPart, frac, _ := strings.Cut(s, ".")
	if intPart == "" && frac == "" {
		return 0, fmt.Errorf("%q is not a number", orig)
	}
	if strings.ContainsAny(s, "eE") {
		return 0, fmt.Errorf("%q: %w", orig, errExponent)
	}
	// Trailing zeros past the scale carry no value ("1.500" is 1.50).
	frac = strings.TrimRight(frac, "0")
	if len(frac) > places {
		return 0, fmt.Errorf("%q has more than %d decimal places", orig, places)
	}
	if intPart == "" {
		intPart = "0"
	}
	for _, part := range []string{intPart, frac} {
		for _, c := range part {
			if c < '0' || c > '9' {
				return 0, fmt.Errorf("%q is not a number", orig)
			}
		}
	}
	whole, err := strconv.ParseUint(intPart, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%q: %w", orig, errOverflow)
	}
	var f uint64
	if frac != "" {
		f, _ = strconv.ParseUint(frac, 10, 64)
		f *= uint64(pow10[places-len(frac)])
	}
	// The magnitude may reach 2^63 when negative: every value that
	// formatFixed writes, math.MinInt64 included, reads back.
	limit := uint64(math.MaxInt64)
	if neg {
		limit++
	}
	scale := uint64(pow10[places])
	if whole > (limit-f)/scale {
		return 0, fmt.Errorf("%q: %w", orig, errOverflow)
	}
	v := whole*scale + f
	if neg {
		return int64(-v), nil
	}
	return int64(v), nil
}

// formatFixed writes v with at least minPlaces decimals and up to places,
// dropping trailing zeros beyond minPlaces.
func formatFixed(v int64, places, minPlaces int) string {
	return string(appendFixed(make([]byte, 0, 24), v, places, minPlaces))
}

// appendFixed is formatFixed appending to b; it runs for every figure of
// every response, so it avoids fmt.
func appendFixed(b []byte, v int64, places, minPlaces int) []byte {
	u := abs64(v)
	if v < 0 {
		b = append(b, '-')
	}
	scale := uint64(pow10[places])
	b = strconv.AppendUint(b, u/scale, 10)
	frac := u % scale
	var digits [8]byte
	for i := places - 1; i >= 0; i-- {
		digits[i] = byte('0' + frac%10)
		frac /= 10
	}
	n := places
	for n > minPlaces && digits[n-1] == '0' {
		n--
	}
	if n > 0 {
		b = append(b, '.')
		b = append(b, digits[:n]...)
	}
	return b
}

// unmarshalFixed accepts a JSON number or a JSON string holding a number
// (form-encoded bodies arrive as strings).
func unmarshalFixed(data []byte, places int) (int64, error) {
	s := string(data)
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		s = s[1 : len(s)-1]
	}
	return parseFixed(strings.TrimSpace(s), places)
}
