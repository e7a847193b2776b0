package app

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// The limits a Param declares (length, range, decimals, enumeration) are
// the limits every way in enforces: the server's decoder and the desktop
// both reach CheckParams (Apply calls it before an edit's own rules),
// and the API document is written from the same fields, so what a client
// reads there is what it gets.

// Bounds is a number's range in its type's smallest unit.
type Bounds struct {
	Min, Max int64
	// MinExclusive: Min itself is refused.
	MinExclusive bool
}

// Places is how many decimals a number param holds (0 for whole
// numbers).
func (p Param) Places() int {
	switch p.Type {
	case ParamMoney:
		return moneyPlaces
	case ParamQuantity:
		return quantityPlaces
	case ParamPercent:
		return ratePlaces
	}
	return 0
}

// FormatBound writes a value in p's smallest unit as the decimal a client
// sends ("10000000.00" for a Money bound).
func (p Param) FormatBound(v int64) string {
	if places := p.Places(); places > 0 {
		return formatFixed(v, places, 0)
	}
	return strconv.FormatInt(v, 10)
}

// CheckParams checks every set param against its declaration, naming the
// param in the error.
func CheckParams(params []Param) error {
	for _, p := range params {
		if err := p.check(); err != nil {
			return err
		}
	}
	return nil
}

func (p Param) check() error {
	v, set := p.Value()
	if !set {
		return nil
	}
	switch p.Type {
	case ParamText:
		return p.checkText(v.(string))
	case ParamEnum:
		s := v.(string)
		for _, e := range p.Enum {
			if strings.EqualFold(e, strings.TrimSpace(s)) {
				return nil
			}
		}
		return Invalid(p.Name, "must be one of %s", strings.Join(p.Enum, ", "))
	}
	if p.Bounds == nil {
		return nil
	}
	var n int64
	switch t := v.(type) {
	case int64:
		n = t
	case Money:
		n = int64(t)
	case Quantity:
		n = int64(t)
	case Rate:
		n = int64(t)
	default:
		return nil
	}
	b := p.Bounds
	low := n < b.Min || (b.MinExclusive && n == b.Min)
	if low || n > b.Max {
		if b.MinExclusive {
			return Invalid(p.Name, "must be more than %s and at most %s", p.FormatBound(b.Min), p.FormatBound(b.Max))
		}
		return Invalid(p.Name, "must be from %s to %s", p.FormatBound(b.Min), p.FormatBound(b.Max))
	}
	return nil
}

func (p Param) checkText(s string) error {
	if !utf8.ValidString(s) {
		return Invalid(p.Name, "must be valid UTF-8 text")
	}
	if p.MinLength > 0 && strings.TrimSpace(s) == "" {
		return Invalid(p.Name, "is required")
	}
	n := utf8.RuneCountInString(s)
	if n < p.MinLength {
		return Invalid(p.Name, "is %d characters long; the minimum is %d", n, p.MinLength)
	}
	if p.MaxLength > 0 && n > p.MaxLength {
		return Invalid(p.Name, "is %d characters long; the limit is %d", n, p.MaxLength)
	}
	return nil
}
