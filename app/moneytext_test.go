package app

import "testing"

func TestFormatMoney(t *testing.T) {
	eur := Currency{Code: "EUR"}
	for _, c := range []struct {
		m    string
		cur  Currency
		want string
	}{
		{"0", USD, "$0.00"},
		{"5", USD, "$5.00"},
		{"999", USD, "$999.00"},
		{"1000", USD, "$1,000.00"},
		{"1234567.8", USD, "$1,234,567.80"},
		{"-12.34", USD, "-$12.34"},
		{"-1000", USD, "-$1,000.00"},
		{"-0.01", USD, "-$0.01"},
		{"92233720368547.75", USD, "$92,233,720,368,547.75"},
		{"12.5", eur, "EUR 12.50"},
		{"-1234", eur, "-EUR 1,234.00"},
		{"3", Currency{}, "$3.00"},
		{"3", Currency{Code: "GBP", Symbol: "£"}, "£3.00"},
	} {
		if got := FormatMoney(MustMoney(c.m), c.cur); got != c.want {
			t.Errorf("FormatMoney(%s, %+v) = %q, want %q", c.m, c.cur, got, c.want)
		}
	}
}
