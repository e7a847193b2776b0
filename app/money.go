package app

import "fmt"

// Money is an amount in minor units (cents) of the account's currency.
// Every currency the system supports has two minor-unit places (see
// Currency); the JSON form is a number with at most two decimals.
type Money int64

// Quantity is an item quantity in ten-thousandths (four decimal places).
type Quantity int64

// Rate is a percentage in ten-thousandths of a percent: 8.875% is 88750.
type Rate int64

const (
	moneyPlaces    = 2
	quantityPlaces = 4
	ratePlaces     = 4

	// OneUnit is a quantity of exactly one.
	OneUnit Quantity = 10000
	// HundredPercent is a Rate of 100%.
	HundredPercent Rate = 100 * 10000

	// MaxLineTotal bounds a single item's price times quantity, and
	// MaxQuantity its quantity, so sums of thousands of lines stay far from
	// int64's range.
	MaxLineTotal Money    = 1e13 // $100 billion
	MaxQuantity  Quantity = 1e6 * OneUnit
	MaxPrice     Money    = 1e11 // $1 billion a unit
)

// ParseMoney reads "12.5" or "-3.25". More than two decimals is an error.
func ParseMoney(s string) (Money, error) {
	v, err := parseFixed(s, moneyPlaces)
	if err != nil {
		return 0, fmt.Errorf("money: %w", err)
	}
	return Money(v), nil
}

// MustMoney is ParseMoney for constants in code and tests.
func MustMoney(s string) Money {
	m, err := ParseMoney(s)
	if err != nil {
		panic("bug: " + err.Error())
	}
	return m
}

func (m Money) String() string { return formatFixed(int64(m), moneyPlaces, moneyPlaces) }

// MulQty is a line total: m times q, rounded half away from zero to cents.
func (m Money) MulQty(q Quantity) Money {
	return Money(mulDivRound(int64(m), int64(q), int64(OneUnit)))
}

// Percent is r percent of m, rounded half away from zero to cents.
func (m Money) Percent(r Rate) Money {
	return Money(mulDivRound(int64(m), int64(r), int64(HundredPercent)))
}

// Share is m*part/whole rounded to cents: the part of m that belongs to
// part out of whole. A zero whole has no share.
func (m Money) Share(part, whole Money) Money {
	if whole == 0 {
		return 0
	}
	return Money(mulDivRound(int64(m), int64(part), int64(whole)))
}

func (m Money) MarshalJSON() ([]byte, error) {
	return appendFixed(make([]byte, 0, 24), int64(m), moneyPlaces, moneyPlaces), nil
}

func (m *Money) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return nil
	}
	v, err := unmarshalFixed(b, moneyPlaces)
	if err != nil {
		return err
	}
	*m = Money(v)
	return nil
}

// ParseQuantity reads a quantity with up to four decimals.
func ParseQuantity(s string) (Quantity, error) {
	v, err := parseFixed(s, quantityPlaces)
	if err != nil {
		return 0, fmt.Errorf("quantity: %w", err)
	}
	return Quantity(v), nil
}

// MustQuantity is ParseQuantity for constants in code and tests.
func MustQuantity(s string) Quantity {
	q, err := ParseQuantity(s)
	if err != nil {
		panic("bug: " + err.Error())
	}
	return q
}

func (q Quantity) String() string { return formatFixed(int64(q), quantityPlaces, 0) }

func (q Quantity) MarshalJSON() ([]byte, error) {
	return appendFixed(make([]byte, 0, 24), int64(q), quantityPlaces, 0), nil
}

func (q *Quantity) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return nil
	}
	v, err := unmarshalFixed(b, quantityPlaces)
	if err != nil {
		return err
	}
	*q = Quantity(v)
	return nil
}

// ParseRate reads a percentage with up to four decimals ("8.875").
func ParseRate(s string) (Rate, error) {
	v, err := parseFixed(s, ratePlaces)
	if err != nil {
		return 0, fmt.Errorf("rate: %w", err)
	}
	return Rate(v), nil
}

// MustRate is ParseRate for constants in code and tests.
func MustRate(s string) Rate {
	r, err := ParseRate(s)
	if err != nil {
		panic("bug: " + err.Error())
	}
	return r
}

// RateOf is part as a percentage of whole, rounded to four decimals.
func RateOf(part, whole Money) Rate {
	if whole == 0 {
		return 0
	}
	return Rate(mulDivRound(int64(part), int64(HundredPercent), int64(whole)))
}

func (r Rate) String() string { return formatFixed(int64(r), ratePlaces, 0) }

func (r Rate) MarshalJSON() ([]byte, error) {
	return appendFixed(make([]byte, 0, 24), int64(r), ratePlaces, 0), nil
}

func (r *Rate) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return nil
	}
	v, err := unmarshalFixed(b, ratePlaces)
	if err != nil {
		return err
	}
	*r = Rate(v)
	return nil
}

// Currency names the account's currency. Only currencies with two
// minor-unit places are supported; USD is the default.
type Currency struct {
	Code   string `json:"code"`
	Symbol string `json:"symbol"`
}

// USD is the default currency of a new account.
var USD = Currency{Code: "USD", Symbol: "$"}
