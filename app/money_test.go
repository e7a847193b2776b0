package app

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"
)

// Input decisions the tests pin down (the spec only says "numeric"):
// a leading '+', ".5" and "5." are accepted (as strconv.ParseFloat does);
// trailing zeros past the scale carry no value and are accepted ("1.500");
// exponents, blanks, separators and any other text are refused; more
// significant decimals than the type holds is an error, never a rounding.

func TestParseMoney(t *testing.T) {
	good := []struct {
		in   string
		want Money
	}{
		{"0", 0},
		{"-0", 0},
		{"12.5", 1250},
		{"12.50", 1250},
		{"-3.25", -325},
		{"+5", 500},
		{".5", 50},
		{"-.5", -50},
		{"5.", 500},
		{"1.500", 150},
		{"0.01", 1},
		{"007.10", 710},
		{"1.0000000000000000000000", 100},
		{"100000000000", 10000000000000},
		{"92233720368547758.07", math.MaxInt64},
		{"-92233720368547758.07", -math.MaxInt64},
		{"-92233720368547758.08", math.MinInt64},
	}
	for _, tc := range good {
		got, err := ParseMoney(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ParseMoney(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
		}
	}
	bad := []struct{ in, why string }{
		{"", "empty"},
		{"1.234", "three decimals"},
		{"0.001", "three decimals"},
		{"1e3", "exponent"},
		{"1E3", "exponent"},
		{"1.5e-2", "exponent"},
		{"abc", "garbage"},
		{"12abc", "garbage"},
		{"1.2.3", "two points"},
		{"1,000.00", "group separator"},
		{"--1", "double sign"},
		{"+-1", "double sign"},
		{"-", "sign only"},
		{"+", "sign only"},
		{".", "point only"},
		{"-.", "point only"},
		{" 1", "space"},
		{"1 ", "space"},
		{"0x10", "hex"},
		{"NaN", "not a number"},
		{"Inf", "not a number"},
		{"١٢", "non-ASCII digits"},
		{"92233720368547758.08", "overflow"},
		{"-92233720368547758.09", "overflow"},
		{"99999999999999999999", "overflow"},
		{"99999999999999999999999999.5", "overflow"},
	}
	for _, tc := range bad {
		if got, err := ParseMoney(tc.in); err == nil {
			t.Errorf("ParseMoney(%q) = %d, want an error (%s)", tc.in, got, tc.why)
		} else if !strings.HasPrefix(err.Error(), "money: ") {
			t.Errorf("ParseMoney(%q) error %q does not name the type", tc.in, err)
		}
	}
}

func TestParseQuantityAndRate(t *testing.T) {
	tests := []struct {
		in      string
		want    int64
		wantErr bool
	}{
		{in: "1", want: 10000},
		{in: "1.2345", want: 12345},
		{in: "0.0001", want: 1},
		{in: "-0.5", want: -5000},
		{in: ".25", want: 2500},
		{in: "3.", want: 30000},
		{in: "8.87500", want: 88750},
		{in: "922337203685477.5807", want: math.MaxInt64},
		{in: "1.23456", wantErr: true},
		{in: "0.00001", wantErr: true},
		{in: "1e2", wantErr: true},
		{in: "", wantErr: true},
		{in: "x", wantErr: true},
		{in: "922337203685477.5808", wantErr: true},
	}
	for _, tc := range tests {
		gq, errQ := ParseQuantity(tc.in)
		gr, errR := ParseRate(tc.in)
		if tc.wantErr {
			if errQ == nil || errR == nil {
				t.Errorf("%q: ParseQuantity = %d, %v; ParseRate = %d, %v; want errors", tc.in, gq, errQ, gr, errR)
			}
			continue
		}
		if errQ != nil || int64(gq) != tc.want {
			t.Errorf("ParseQuantity(%q) = %d, %v; want %d", tc.in, gq, errQ, tc.want)
		}
		if errR != nil || int64(gr) != tc.want {
			t.Errorf("ParseRate(%q) = %d, %v; want %d", tc.in, gr, errR, tc.want)
		}
	}
}

func TestFormat(t *testing.T) {
	tests := []struct {
		got, want string
	}{
		{Money(0).String(), "0.00"},
		{Money(1).String(), "0.01"},
		{Money(-1).String(), "-0.01"},
		{Money(-5).String(), "-0.05"},
		{Money(1250).String(), "12.50"},
		{Money(-325).String(), "-3.25"},
		{Money(100).String(), "1.00"},
		{Money(123456789).String(), "1234567.89"},
		{Money(math.MaxInt64).String(), "92233720368547758.07"},
		{Money(math.MinInt64).String(), "-92233720368547758.08"},
		{Quantity(0).String(), "0"},
		{OneUnit.String(), "1"},
		{Quantity(15000).String(), "1.5"},
		{Quantity(1).String(), "0.0001"},
		{Quantity(-5000).String(), "-0.5"},
		{Quantity(12345).String(), "1.2345"},
		{Rate(88750).String(), "8.875"},
		{HundredPercent.String(), "100"},
		{Rate(-1).String(), "-0.0001"},
		{Rate(0).String(), "0"},
	}
	for i, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("case %d: got %q, want %q", i, tc.got, tc.want)
		}
	}
}

// fixedJSON is every fixed-point type in one JSON object.
type fixedJSON struct {
	M Money    `json:"m"`
	Q Quantity `json:"q"`
	R Rate     `json:"r"`
}

func TestFixedPointJSON(t *testing.T) {
	t.Run("marshal", func(t *testing.T) {
		b, err := json.Marshal(fixedJSON{M: 1250, Q: 15000, R: 88750})
		if err != nil {
			t.Fatal(err)
		}
		if want := `{"m":12.50,"q":1.5,"r":8.875}`; string(b) != want {
			t.Errorf("got %s, want %s", b, want)
		}
		b, _ = json.Marshal(fixedJSON{M: -5})
		if want := `{"m":-0.05,"q":0,"r":0}`; string(b) != want {
			t.Errorf("got %s, want %s", b, want)
		}
	})

	good := []struct {
		in   string
		want fixedJSON
	}{
		{`{"m":12.5,"q":2,"r":8.875}`, fixedJSON{1250, 20000, 88750}},
		{`{"m":"12.5","q":"2","r":"8.875"}`, fixedJSON{1250, 20000, 88750}},
		{`{"m":" 12.5 ","q":" 0.0001","r":"100 "}`, fixedJSON{1250, 1, 1000000}},
		{`{"m":-0.01,"q":-1.5,"r":-0.0001}`, fixedJSON{-1, -15000, -1}},
		{`{"m":"+7","q":".5","r":"5."}`, fixedJSON{700, 5000, 50000}},
		{`{"m":1.000,"q":1.23450,"r":0}`, fixedJSON{100, 12345, 0}},
		// null leaves the value as it was (here: the zero of a fresh value).
		{`{"m":null,"q":null,"r":null}`, fixedJSON{}},
	}
	for _, tc := range good {
		var got fixedJSON
		if err := json.Unmarshal([]byte(tc.in), &got); err != nil || got != tc.want {
			t.Errorf("Unmarshal(%s) = %+v, %v; want %+v", tc.in, got, err, tc.want)
		}
	}

	t.Run("null keeps the previous value", func(t *testing.T) {
		got := fixedJSON{M: 1, Q: 2, R: 3}
		if err := json.Unmarshal([]byte(`{"m":null,"q":null,"r":null}`), &got); err != nil {
			t.Fatal(err)
		}
		if want := (fixedJSON{M: 1, Q: 2, R: 3}); got != want {
			t.Errorf("got %+v, want %+v", got, want)
		}
	})

	bad := []string{
		`{"m":12.345}`, `{"m":"12.345"}`, `{"m":1e2}`, `{"m":"1e2"}`, `{"m":""}`, `{"m":"abc"}`,
		`{"m":true}`, `{"m":{}}`, `{"m":[]}`, `{"m":"null"}`, `{"m":92233720368547758.08}`,
		`{"q":1.23456}`, `{"q":"x"}`, `{"q":1E4}`,
		`{"r":8.87501}`, `{"r":false}`, `{"r":"8,875"}`,
	}
	for _, in := range bad {
		var got fixedJSON
		if err := json.Unmarshal([]byte(in), &got); err == nil {
			t.Errorf("Unmarshal(%s) = %+v, want an error", in, got)
		}
	}
}

func TestMulQty(t *testing.T) {
	tests := []struct {
		price, qty, want string
	}{
		{"10.00", "1.5", "15.00"},
		{"1.99", "3", "5.97"},
		{"0.05", "0.1", "0.01"},   // 0.005: half rounds up
		{"-0.05", "0.1", "-0.01"}, // -0.005: half rounds away from zero
		{"0.05", "-0.1", "-0.01"},
		{"-0.05", "-0.1", "0.01"},
		{"0.01", "0.4999", "0.00"},  // 0.004999
		{"0.01", "0.5", "0.01"},     // 0.005
		{"-0.01", "0.5", "-0.01"},   // -0.005
		{"0.03", "0.5", "0.02"},     // 0.015
		{"-0.03", "0.5", "-0.02"},   // -0.015
		{"0.01", "0.0001", "0.00"},  // 0.000001
		{"0.99", "1.3333", "1.32"},  // 1.319967
		{"2.49", "0.3333", "0.83"},  // 0.829917
		{"10.50", "0.3333", "3.50"}, // 3.49965
		{"12.34", "0", "0.00"},
		{"100000000000.00", "1", "100000000000.00"},
		{"92233720368547758.07", "1", "92233720368547758.07"}, // 128-bit product, no wrap
	}
	for _, tc := range tests {
		if got := m(tc.price).MulQty(q(tc.qty)); got != m(tc.want) {
			t.Errorf("%s × %s = %s, want %s", tc.price, tc.qty, got, tc.want)
		}
	}
}

func TestMulQtyOverflowPanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("MulQty beyond int64 did not panic")
		}
	}()
	_ = m("92233720368547758.07").MulQty(q("2"))
}

func TestPercent(t *testing.T) {
	tests := []struct {
		amount, rate, want string
	}{
		{"100.00", "8.25", "8.25"},
		{"41.25", "10", "4.13"},   // 4.125
		{"-41.25", "10", "-4.13"}, // -4.125
		{"41.25", "-10", "-4.13"},
		{"10.10", "6.25", "0.63"},  // 0.63125
		{"10.10", "2.75", "0.28"},  // 0.27775
		{"0.10", "5", "0.01"},      // 0.005
		{"-0.10", "5", "-0.01"},    // -0.005
		{"33.33", "7.5", "2.50"},   // 2.49975
		{"0.09", "5", "0.00"},      // 0.0045
		{"0.99", "0.0001", "0.00"}, // 0.00000099
		{"123.45", "100", "123.45"},
		{"123.45", "0", "0.00"},
		{"200.00", "150", "300.00"},
		{"1000.01", "50", "500.01"}, // 500.005
	}
	for _, tc := range tests {
		if got := m(tc.amount).Percent(r(tc.rate)); got != m(tc.want) {
			t.Errorf("%s%% of %s = %s, want %s", tc.rate, tc.amount, got, tc.want)
		}
	}
}

func TestShare(t *testing.T) {
	tests := []struct {
		amount, part, whole, want string
	}{
		{"15.00", "33.33", "100.00", "5.00"}, // 4.9995
		{"25.00", "60.00", "80.00", "18.75"},
		{"10.00", "1.00", "3.00", "3.33"},  // 3.333…
		{"20.00", "1.00", "3.00", "6.67"},  // 6.666…
		{"0.01", "1.00", "2.00", "0.01"},   // 0.005
		{"-0.01", "1.00", "2.00", "-0.01"}, // -0.005
		{"0.03", "1.00", "2.00", "0.02"},   // 0.015
		{"10.00", "0", "5.00", "0.00"},
		{"10.00", "5.00", "5.00", "10.00"},
		{"10.00", "5.00", "0", "0.00"}, // zero whole: no share
		{"0", "5.00", "0", "0.00"},
	}
	for _, tc := range tests {
		if got := m(tc.amount).Share(m(tc.part), m(tc.whole)); got != m(tc.want) {
			t.Errorf("%s × %s / %s = %s, want %s", tc.amount, tc.part, tc.whole, got, tc.want)
		}
	}
}

func TestRateOf(t *testing.T) {
	tests := []struct {
		part, whole, want string
	}{
		{"70.00", "150.00", "46.6667"}, // 46.66666…
		{"1.00", "3.00", "33.3333"},
		{"2.00", "3.00", "66.6667"},
		{"-1.00", "3.00", "-33.3333"},
		{"1.00", "-3.00", "-33.3333"},
		{"1.00", "8.00", "12.5"},
		{"0.01", "20000.00", "0.0001"},   // 0.00005: half rounds up
		{"-0.01", "20000.00", "-0.0001"}, // half away from zero
		{"0.01", "20000.01", "0"},        // just under half
		{"50.00", "50.00", "100"},
		{"150.00", "100.00", "150"},
		{"5.00", "0", "0"}, // zero whole: no rate
	}
	for _, tc := range tests {
		if got := RateOf(m(tc.part), m(tc.whole)); got != r(tc.want) {
			t.Errorf("RateOf(%s, %s) = %s, want %s", tc.part, tc.whole, got, tc.want)
		}
	}
}

// TestTimeJSONMatchesLayout: the hand-written encoder writes exactly
// what time.Format with TimeLayout writes.
func TestTimeJSONMatchesLayout(t *testing.T) {
	for _, tm := range []time.Time{
		time.Date(2026, 3, 4, 5, 6, 7, 8_900_000, time.UTC),
		time.Date(1, 1, 1, 0, 0, 0, 1_000_000, time.UTC),
		time.Date(9999, 12, 31, 23, 59, 59, 999_999_999, time.FixedZone("X", -7*3600)),
		time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC),
	} {
		got, err := At(tm).MarshalJSON()
		want := `"` + At(tm).UTC().Format(TimeLayout) + `"`
		if err != nil || string(got) != want {
			t.Errorf("%v: %s, want %s", tm, got, want)
		}
	}
}
