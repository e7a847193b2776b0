package demo

import (
	"fmt"
	"slices"

	"proposaldesk/app"
)

// The demo catalog's packages: systems dealers sell as one, made of the
// demo's products. Some have a package price (a combined price on the
// proposal), the others are priced by their items.

// packageProducts are products only the packages use.
var packageProducts = map[string]product{
	"luma-cam":     {app.ItemPart, "Luma", "LUM-510-DOM-IPH-WH", "Luma x20 4MP IP Dome Camera", "Indoor/outdoor 4MP dome with IR night vision.", "Snap One", "279.00", "229.00", "141.00", false, false},
	"luma-nvr":     {app.ItemPart, "Luma", "LUM-510-NVR-8CH-4TB", "Luma x20 8-Channel NVR, 4TB", "Network video recorder with 8 PoE ports and 4TB of storage.", "Snap One", "949.00", "799.00", "520.00", false, false},
	"poe-switch8":  {app.ItemPart, "Araknis", "AN-110-SW-C-8-POE", "Araknis 110 Series 8-Port PoE+ Switch", "Compact unmanaged PoE+ switch.", "Snap One", "219.00", "189.00", "118.00", false, false},
	"neat-bar":     {app.ItemPart, "Neat", "NEATBAR2-SE", "Neat Bar 2 Video Bar", "All-in-one video bar for small and medium rooms.", "ADI Global", "2499.00", "2299.00", "1690.00", false, false},
	"neat-pad":     {app.ItemPart, "Neat", "NEATPAD-SE", "Neat Pad Room Controller", "Touch controller and scheduling panel.", "ADI Global", "799.00", "699.00", "499.00", false, false},
	"zoom-rooms":   {app.ItemFee, "Zoom", "ZOOM-ROOMS-MO", "Zoom Rooms License (monthly)", "One room's Zoom Rooms license, billed monthly.", "", "", "49.00", "", false, true},
	"sonos-era300": {app.ItemPart, "Sonos", "E30G1US1BLK", "Sonos Era 300", "Spatial audio speaker with Dolby Atmos.", "Sonos", "449.00", "449.00", "315.00", false, false},
	"stand-pair":   {app.ItemPart, "Flexson", "FLXS1FS2021", "Flexson Floor Stand Pair for Era 100", "Floor stands for rear surround speakers.", "Sonos", "249.00", "229.00", "150.00", false, false},
}

// demoPackage is a package of products (by key) with quantities; price ""
// is a package without a package price.
type demoPackage struct {
	key, name, description, price, cost string
	parts                               []struct{ key, qty string }
}

func parts(kv ...string) []struct{ key, qty string } {
	out := make([]struct{ key, qty string }, 0, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		out = append(out, struct{ key, qty string }{kv[i], kv[i+1]})
	}
	return out
}

var demoPackages = []demoPackage{
	{"pkg-sonos-51", "5.1 Sonos theater", "Arc Ultra, Sub, two Era 100 rears on stands, wall mount and installation.", "2999.00", "1990.00",
		parts("sonos-arc", "1", "sonos-sub", "1", "sonos-era", "2", "stand-pair", "1", "mount", "1", "labor-install", "3")},
	{"pkg-sonos-atmos", "Sonos Atmos theater 7.1.4", "Arc Ultra, two Subs and Era 300 surrounds, priced by item.", "", "",
		parts("sonos-arc", "1", "sonos-sub", "2", "sonos-era300", "2", "sonos-era", "2", "labor-install", "4")},
	{"pkg-wifi", "Whole-home Wi-Fi", "Router, PoE switch, four access points, cabling, setup and monitoring, priced by item.", "", "",
		parts("araknis-router", "1", "araknis-switch", "1", "araknis-wap", "4", "cat6", "1", "labor-install", "4", "svc-monitor", "1")},
	{"pkg-wifi-unifi", "Whole-home Wi-Fi, UniFi", "Dream Machine, three U7 Pro access points, one outdoor mesh point and cabling.", "2490.00", "1610.00",
		parts("unifi-udm", "1", "unifi-u7", "3", "unifi-outdoor", "1", "cat6", "1", "labor-install", "3")},
	{"pkg-cam4", "4-camera surveillance kit", "Four 4MP domes, an 8-channel NVR, a PoE switch, cabling and installation.", "2995.00", "1890.00",
		parts("luma-cam", "4", "luma-nvr", "1", "poe-switch8", "1", "cat6", "1", "labor-install", "6")},
	{"pkg-videobar", "Conference room video bar kit", "Neat Bar 2 and Pad, a 75\" display on a wall mount, cabling, installation and a monthly Zoom Rooms license; priced by item.", "", "",
		parts("neat-bar", "1", "neat-pad", "1", "samsung-75", "1", "mount", "1", "hdmi-fiber", "1", "labor-install", "4", "zoom-rooms", "1")},
	{"pkg-rack", "Equipment rack and power", "27RU rack, two shelves, IP power conditioner and UPS.", "2150.00", "1480.00",
		parts("ma-rack", "1", "ma-shelf", "2", "wattbox", "1", "ups", "1")},
	{"pkg-c4-starter", "Control4 whole-home starter", "CORE 5 controller, Halo remote, lifetime remote access and programming.", "2495.00", "1420.00",
		parts("c4-core5", "1", "c4-remote", "1", "c4-license", "1", "labor-program", "6")},
	{"pkg-lutron-10", "Lutron lighting, 10 rooms", "Ten RadioRA 3 dimmers, two keypads, installation and programming, priced by item.", "", "",
		parts("lutron-dimmer", "10", "lutron-keypad", "2", "labor-install", "5", "labor-program", "3")},
	{"pkg-shades-4", "Motorized shades, 4 windows", "Four Sivoia QS roller shades with a keypad and installation.", "6990.00", "4650.00",
		parts("lutron-shade", "4", "lutron-keypad", "1", "labor-install", "4")},
	{"pkg-outdoor", "Outdoor audio, 4 speakers and sub", "Four bollard speakers, a buried subwoofer, a Sonos Amp and wire, priced by item.", "", "",
		parts("origin-out", "4", "origin-sub", "1", "sonos-amp", "1", "speaker-wire", "1", "labor-install", "4")},
	{"pkg-theater", "Dedicated home theater", "4K laser projector, 120\" screen, 9.4 receiver, Triad LCR and sub, calibration.", "34990.00", "23900.00",
		parts("sony-proj", "1", "screen", "1", "avr", "1", "triad-lcr", "3", "triad-sub", "1", "hdmi-fiber", "1", "labor-calibrate", "1")},
	{"pkg-zone", "Multi-room audio zone", "Two in-ceiling speakers on a Sonos Amp, wire and pre-wire.", "1650.00", "1020.00",
		parts("origin-ic", "2", "sonos-amp", "1", "speaker-wire", "1", "labor-prewire", "2")},
}

// productOf is a demo product of the proposals' catalog or of the
// packages'.
func productOf(key string) (product, bool) {
	if p, ok := catalog[key]; ok {
		return p, true
	}
	p, ok := packageProducts[key]
	return p, ok
}

// packageItems are the demo packages as catalog items whose components
// name items by position (app.CatalogRowsOf): pos gives a product key's
// index in the list the packages are appended to.
func packageItems(pos func(key string) (int, bool)) []app.CatalogItem {
	out := make([]app.CatalogItem, 0, len(demoPackages))
	for _, pk := range demoPackages {
		it := app.CatalogItem{ItemType: app.ItemPart, Brand: "", Name: pk.name, ShortDescription: pk.description,
			Description: pk.description, PartNumber: "DEMO-" + pk.key, CategoryName: "Packages"}
		if pk.price != "" {
			it.SellPrice, it.MSRP = app.MustMoney(pk.price), app.MustMoney(pk.price)
			c := app.MustMoney(pk.cost)
			it.Cost = &c
		}
		for _, p := range pk.parts {
			i, ok := pos(p.key)
			if !ok {
				panic(fmt.Sprintf("bug: demo package %s names unknown product %s", pk.key, p.key))
			}
			it.Components = append(it.Components, app.CatalogComponent{CatalogItemID: int64(i + 1), Quantity: app.MustQuantity(p.qty)})
		}
		out = append(out, it)
	}
	return out
}

// handWrittenKeys are the keys of the demo's written products, sorted:
// the proposals' catalog, then the packages' products.
func handWrittenKeys() []string {
	keys := make([]string, 0, len(catalog)+len(packageProducts))
	for k := range catalog {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	more := make([]string, 0, len(packageProducts))
	for k := range packageProducts {
		more = append(more, k)
	}
	slices.Sort(more)
	return append(keys, more...)
}
