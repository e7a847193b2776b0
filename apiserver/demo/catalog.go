package demo

import "proposaldesk/app"

// The demo data's raw material: a small AV / low-voltage catalog, room
// packages built from it, and the people and places of the demo accounts.
// Prices are plausible dealer pricing, not any manufacturer's price list.

// product is one catalog entry; cost "" means the dealer has no cost on
// file (the item's cost is then unknown, not zero).
type product struct {
	kind        app.ItemType
	brand       string
	model       string
	name        string
	description string
	supplier    string
	msrp        string
	sell        string
	cost        string
	taxExempt   bool
	recurring   bool
}

var catalog = map[string]product{
	// Video
	"sony-85": {app.ItemPart, "Sony", "XR-85X90L", "Sony BRAVIA XR 85\" X90L 4K HDR Full Array LED TV",
		"85\" 4K HDR TV with full-array local dimming and Google TV.", "ADI Global", "2299.99", "2199.00", "1649.00", false, false},
	"sony-proj": {app.ItemPart, "Sony", "VPL-XW5000ES", "Sony VPL-XW5000ES 4K SXRD Laser Projector",
		"Native 4K laser projector, 2,000 lumens, for a dedicated theater.", "Sony Pro", "5999.99", "5799.00", "4310.00", false, false},
	"samsung-75": {app.ItemPart, "Samsung", "QN75QN90D", "Samsung 75\" Neo QLED 4K QN90D",
		"75\" Neo QLED 4K smart TV, anti-glare for bright rooms.", "ADI Global", "2799.99", "2599.00", "1980.00", false, false},
	"samsung-frame": {app.ItemPart, "Samsung", "QN65LS03D", "Samsung 65\" The Frame",
		"65\" art-mode TV with matte display and customizable bezel.", "ADI Global", "1999.99", "1899.00", "1420.00", false, false},
	"samsung-terrace": {app.ItemPart, "Samsung", "QN65LST7T", "Samsung 65\" The Terrace Outdoor TV",
		"Partial-sun rated outdoor 4K QLED, IP55 weather resistance.", "ADI Global", "3499.99", "3299.00", "2540.00", false, false},
	"screen": {app.ItemPart, "Stewart Filmscreen", "CCI-120-ST130", "Stewart 120\" Cima Fixed Screen",
		"120\" diagonal 16:9 fixed-frame screen, StudioTek 130 material.", "Stewart Filmscreen", "4120.00", "3950.00", "2765.00", false, false},
	"mount": {app.ItemPart, "Strong", "SM-TILT-L", "Strong Large Tilt Wall Mount",
		"Tilting mount for 55\"-90\" displays.", "Snap One", "229.99", "199.00", "88.00", false, false},

	// Audio
	"sonos-arc": {app.ItemPart, "Sonos", "ARCULUS1US1BLK", "Sonos Arc Ultra Soundbar",
		"Dolby Atmos soundbar with voice control.", "Sonos", "999.00", "999.00", "710.00", false, false},
	"sonos-sub": {app.ItemPart, "Sonos", "SUBG4US1BLK", "Sonos Sub (Gen 4)",
		"Wireless subwoofer for deep bass.", "Sonos", "799.00", "799.00", "568.00", false, false},
	"sonos-amp": {app.ItemPart, "Sonos", "AMPG1US1BLK", "Sonos Amp",
		"125 W/ch streaming amplifier for architectural speakers.", "Sonos", "699.00", "699.00", "497.00", false, false},
	"sonos-era": {app.ItemPart, "Sonos", "E10G1US1BLK", "Sonos Era 100",
		"Compact smart speaker with stereo sound.", "Sonos", "249.00", "249.00", "177.00", false, false},
	"origin-ic": {app.ItemPart, "Origin Acoustics", "D65", "Origin Director 6.5\" In-Ceiling Speaker (pair)",
		"Director Collection 6.5\" in-ceiling speakers, pair, paintable grilles.", "Origin Acoustics", "700.00", "640.00", "330.00", false, false},
	"origin-lcr": {app.ItemPart, "Origin Acoustics", "C86", "Origin Composer 8\" In-Ceiling LCR",
		"Angled 8\" in-ceiling speaker for theater front channels.", "Origin Acoustics", "1200.00", "1100.00", "560.00", false, false},
	"origin-out": {app.ItemPart, "Origin Acoustics", "BOLLARD80", "Origin Bollard 8\" Landscape Speaker",
		"All-weather 360-degree landscape speaker.", "Origin Acoustics", "450.00", "425.00", "215.00", false, false},
	"origin-sub": {app.ItemPart, "Origin Acoustics", "LSUB12", "Origin Landscape 12\" Subwoofer (in-ground)",
		"Burial subwoofer for outdoor systems.", "Origin Acoustics", "1100.00", "1050.00", "540.00", false, false},
	"triad-lcr": {app.ItemPart, "Triad", "InWall Gold LCR", "Triad InWall Gold LCR",
		"Theater-grade in-wall speaker for left, center and right.", "Triad Speakers", "2100.00", "1995.00", "1180.00", false, false},
	"triad-sub": {app.ItemPart, "Triad", "InRoom Gold Sub", "Triad InRoom Gold Subwoofer",
		"12\" sealed subwoofer with external amplifier.", "Triad Speakers", "3250.00", "3100.00", "1850.00", false, false},
	"avr": {app.ItemPart, "Denon", "AVR-X4800H", "Denon AVR-X4800H 9.4 Channel AV Receiver",
		"8K-ready 9.4 channel receiver with Dolby Atmos and Audyssey.", "ADI Global", "2499.00", "2399.00", "1720.00", false, false},

	// Control, lighting, networking
	"c4-core5": {app.ItemPart, "Control4", "C4-CORE5", "Control4 CORE 5 Controller",
		"Whole-home automation controller for large projects.", "Snap One", "2000.00", "1950.00", "1170.00", false, false},
	"c4-core1": {app.ItemPart, "Control4", "C4-CORE1", "Control4 CORE 1 Controller",
		"Single-room automation controller with IR and serial.", "Snap One", "650.00", "625.00", "375.00", false, false},
	"c4-remote": {app.ItemPart, "Control4", "C4-HALO-BL", "Control4 Halo Remote",
		"Rechargeable remote with touch screen and voice.", "Snap One", "499.00", "475.00", "285.00", false, false},
	"c4-license": {app.ItemCustomItem, "Control4", "C4-4SIGHT-LIFETIME", "Control4 4Sight Lifetime License",
		"Remote access and voice control license (software, delivered electronically).", "Snap One", "499.00", "499.00", "300.00", true, false},
	"c4-4sight": {app.ItemFee, "Control4", "C4-4SIGHT-1YR", "Control4 4Sight Subscription (monthly)",
		"Remote access, push notifications and Alexa/Google voice control.", "Snap One", "", "9.99", "", false, true},
	"crestron-tsw": {app.ItemPart, "Crestron", "TSW-1070-B-S", "Crestron 10\" Touch Screen",
		"Wall-mount touch screen for lighting, climate and AV.", "Crestron", "2450.00", "2350.00", "1540.00", false, false},
	"crestron-proc": {app.ItemPart, "Crestron", "CP4N", "Crestron CP4N 4-Series Control System",
		"Control processor with dedicated control subnet.", "Crestron", "2150.00", "2050.00", "1330.00", false, false},
	"lutron-keypad": {app.ItemPart, "Lutron", "HQWT-U-P2W", "Lutron HomeWorks Palladiom Keypad",
		"Two-button Palladiom keypad, wireless.", "Lutron", "540.00", "520.00", "312.00", false, false},
	"lutron-dimmer": {app.ItemPart, "Lutron", "RRST-PRO-N-WH", "Lutron RadioRA 3 Sunnata PRO Dimmer",
		"Touch dimmer for LED and incandescent loads.", "Lutron", "165.00", "159.00", "92.00", false, false},
	"lutron-shade": {app.ItemPart, "Lutron", "SIVOIA-QS-ROLLER64", "Lutron Sivoia QS Roller Shade",
		"Motorized roller shade, blackout fabric, up to 64\" wide.", "Lutron", "1480.00", "1420.00", "910.00", false, false},
	"araknis-router": {app.ItemPart, "Araknis", "AN-310-RT-4L2W", "Araknis 310 Series Dual-WAN Router",
		"Gigabit router with dual WAN and VPN.", "Snap One", "399.00", "379.00", "228.00", false, false},
	"araknis-switch": {app.ItemPart, "Araknis", "AN-310-SW-R-24-POE", "Araknis 310 Series 24-Port PoE+ Switch",
		"Managed 24-port gigabit switch with PoE+ and rack ears.", "Snap One", "1099.00", "1049.00", "630.00", false, false},
	"araknis-wap": {app.ItemPart, "Araknis", "AN-820-AP-I-AC", "Araknis 820 Series Wi-Fi 6 Access Point",
		"Indoor dual-band Wi-Fi 6 access point.", "Snap One", "329.00", "309.00", "185.00", false, false},
	"unifi-udm": {app.ItemPart, "Ubiquiti", "UDM-PRO-MAX", "Ubiquiti UniFi Dream Machine Pro Max",
		"Gateway with UniFi Network and Protect, 10G SFP+.", "Ubiquiti", "599.00", "579.00", "441.00", false, false},
	"unifi-u7": {app.ItemPart, "Ubiquiti", "U7-PRO", "Ubiquiti UniFi U7 Pro Access Point",
		"Wi-Fi 7 ceiling access point with 6 GHz.", "Ubiquiti", "189.00", "199.00", "139.00", false, false},
	"unifi-outdoor": {app.ItemPart, "Ubiquiti", "U6-MESH", "Ubiquiti UniFi U6 Mesh Outdoor AP",
		"Weatherproof Wi-Fi 6 access point for patios and yards.", "Ubiquiti", "179.00", "189.00", "132.00", false, false},
	"ma-rack": {app.ItemPart, "Middle Atlantic", "BGR-2727", "Middle Atlantic BGR 27RU Equipment Rack",
		"27 RU welded rack, 27\" deep, with rear door.", "ADI Global", "1380.00", "1290.00", "810.00", false, false},
	"ma-shelf": {app.ItemPart, "Middle Atlantic", "U2", "Middle Atlantic 2RU Utility Shelf",
		"Vented rack shelf for non-rackable gear.", "ADI Global", "79.00", "75.00", "41.00", false, false},
	"wattbox": {app.ItemPart, "WattBox", "WB-800-IPVM-12", "WattBox 800 Series IP Power Conditioner",
		"12 outlet rack power conditioner with remote reboot.", "Snap One", "999.00", "949.00", "560.00", false, false},
	"ups": {app.ItemPart, "WattBox", "WB-1100-IPVM-6", "WattBox 1500VA Rack UPS",
		"Battery backup for network and control gear.", "Snap One", "1199.00", "1149.00", "690.00", false, false},

	// Cabling and materials
	"cat6": {app.ItemPart, "Binary", "B6-CMR-1000-BLU", "Cat6 CMR Cable, 1000 ft",
		"Riser-rated Cat6 UTP, 23 AWG, box of 1000 ft.", "ADI Global", "279.00", "259.00", "142.00", false, false},
	"speaker-wire": {app.ItemPart, "Binary", "B-16-4-CL2-500", "16/4 CL2 Speaker Wire, 500 ft",
		"In-wall rated 16 AWG 4-conductor speaker cable.", "ADI Global", "189.00", "175.00", "96.00", false, false},
	"hdmi-fiber": {app.ItemPart, "Binary", "B8-HDMI-AOC-50", "8K Fiber HDMI Cable, 50 ft",
		"Active optical HDMI 2.1 cable for projector runs.", "Snap One", "249.00", "229.00", "118.00", false, false},
	"materials": {app.ItemCustomItem, "", "", "Installation Materials",
		"Brackets, low-voltage rings, connectors, labels and consumables.", "", "", "350.00", "", false, false},

	// Labor and fees
	"labor-prewire": {app.ItemLabor, "", "LAB-PREWIRE", "Pre-Wire Labor",
		"Rough-in of low-voltage cabling before drywall, per hour.", "", "", "95.00", "48.00", false, false},
	"labor-install": {app.ItemLabor, "", "LAB-INSTALL", "Installation Labor",
		"Trim-out and installation of equipment, per hour.", "", "", "115.00", "52.00", false, false},
	"labor-program": {app.ItemLabor, "", "LAB-PROG", "Programming Labor",
		"Control system programming and user interface design, per hour.", "", "", "150.00", "60.00", false, false},
	"labor-calibrate": {app.ItemLabor, "", "LAB-CAL", "ISF Video and Audio Calibration",
		"Display calibration and room correction for the theater.", "", "", "650.00", "250.00", false, false},
	"labor-pm": {app.ItemLabor, "", "LAB-PM", "Project Management",
		"Scheduling, trade coordination and site visits.", "", "", "125.00", "55.00", false, false},
	"fee-permit": {app.ItemFee, "", "FEE-PERMIT", "Low-Voltage Permit Fee",
		"City low-voltage permit and inspection.", "", "", "185.00", "185.00", false, false},
	"fee-trip": {app.ItemFee, "", "FEE-TRIP", "Trip Charge",
		"Travel to a site outside the standard service area.", "", "", "75.00", "", false, false},
	"fee-disposal": {app.ItemFee, "", "FEE-DISPOSAL", "Equipment Removal and Disposal",
		"Removal and e-waste recycling of the existing equipment.", "", "", "120.00", "40.00", false, false},
	"svc-monitor": {app.ItemFee, "OvrC", "OVRC-PRO", "OvrC Pro Remote Network Monitoring (monthly)",
		"24/7 monitoring of the network and power devices with proactive alerts.", "Snap One", "", "29.00", "9.00", false, true},
	"svc-care": {app.ItemLabor, "", "CARE-PLAN", "Premium Care Plan (monthly)",
		"Priority support, annual system check-up and firmware updates.", "", "", "59.00", "", false, true},

	// Bundle headers (combined price: the amount includes the nested items)
	"bundle-network": {app.ItemCustomItem, "Araknis", "PKG-NET", "Whole-Home Networking Package",
		"Router, PoE switch and access points, configured and tested.", "Snap One", "", "250.00", "", false, false},
	"bundle-shades": {app.ItemCustomItem, "Lutron", "PKG-SHADE", "Motorized Shade Package",
		"Shades, keypad and programming as one package price.", "Lutron", "", "300.00", "", false, false},
}

// line is one item of a room package: a catalog key and a quantity;
// children nest under it (a combined-price bundle when the parent is a
// bundle-* product).
type line struct {
	key      string
	qty      string
	children []line
}

// roomPackage is an option's content for a room.
type roomPackage struct {
	description string
	installer   string
	lines       []line
}

// rooms are the areas of a proposal with one to three packages each (the
// options: good, better, best).
var rooms = []struct {
	name     string
	packages []roomPackage
}{
	{"Great Room", []roomPackage{
		{"75\" Neo QLED TV with Sonos Arc surround and Lutron lighting control.", "TV on the fireplace wall; confirm stud layout before mounting.",
			[]line{{"samsung-75", "1", nil}, {"mount", "1", nil}, {"sonos-arc", "1", nil}, {"sonos-sub", "1", nil},
				{"lutron-dimmer", "4", nil}, {"c4-remote", "1", nil}, {"labor-install", "6", nil}}},
		{"85\" Sony flagship TV with Sonos Arc, Sub and in-ceiling surrounds.", "Surrounds go in the ceiling above the sofa, 6 ft behind seating.",
			[]line{{"sony-85", "1", nil}, {"mount", "1", nil}, {"sonos-arc", "1", nil}, {"sonos-sub", "1", nil},
				{"origin-ic", "1", nil}, {"sonos-amp", "1", nil}, {"c4-remote", "1", nil}, {"labor-install", "8", nil}}},
	}},
	{"Theater", []roomPackage{
		{"Good: 85\" 4K TV, 5.1 in-ceiling Origin system and Denon receiver.", "Paint-match grilles to SW 7006.",
			[]line{{"sony-85", "1", nil}, {"avr", "1", nil}, {"origin-lcr", "3", nil}, {"origin-ic", "1", nil},
				{"labor-install", "10", nil}}},
		{"Better: 4K laser projector, 120\" screen, Triad LCR and Origin surrounds.", "Projector shelf at 14'6\" throw; fiber HDMI in conduit.",
			[]line{{"sony-proj", "1", nil}, {"screen", "1", nil}, {"avr", "1", nil}, {"triad-lcr", "3", nil},
				{"origin-ic", "2", nil}, {"triad-sub", "1", nil}, {"hdmi-fiber", "1", nil}, {"labor-install", "16", nil},
				{"labor-calibrate", "1", nil}}},
		{"Best: 'Better' plus Crestron touch screen control and motorized shades.", "Coordinate shade pockets with the builder.",
			[]line{{"sony-proj", "1", nil}, {"screen", "1", nil}, {"avr", "1", nil}, {"triad-lcr", "3", nil},
				{"origin-ic", "2", nil}, {"triad-sub", "2", nil}, {"hdmi-fiber", "1", nil}, {"crestron-tsw", "1", nil},
				{"crestron-proc", "1", nil}, {"bundle-shades", "1", []line{{"lutron-shade", "2", nil}, {"lutron-keypad", "1", nil}}},
				{"labor-install", "20", nil}, {"labor-calibrate", "1", nil}, {"labor-program", "8", nil}}},
	}},
	{"Kitchen", []roomPackage{
		{"Sonos-driven in-ceiling music with Lutron dimming.", "Keep speakers 24\" from the range hood.",
			[]line{{"sonos-amp", "1", nil}, {"origin-ic", "1", nil}, {"lutron-dimmer", "3", nil}, {"labor-install", "4", nil}}},
	}},
	{"Primary Suite", []roomPackage{
		{"65\" The Frame TV, Sonos Era speakers and blackout shades.", "Frame TV over the dresser; recessed box for cables.",
			[]line{{"samsung-frame", "1", nil}, {"sonos-era", "2", nil}, {"lutron-shade", "2", nil}, {"lutron-keypad", "1", nil},
				{"labor-install", "5", nil}}},
		{"In-ceiling music and keypad control, no TV.", "",
			[]line{{"sonos-amp", "1", nil}, {"origin-ic", "1", nil}, {"lutron-keypad", "2", nil}, {"labor-install", "3", nil}}},
	}},
	{"Patio", []roomPackage{
		{"Outdoor TV, landscape audio and outdoor Wi-Fi.", "Direct burial cable through the irrigation sleeve.",
			[]line{{"samsung-terrace", "1", nil}, {"mount", "1", nil}, {"sonos-amp", "1", nil}, {"origin-out", "4", nil},
				{"origin-sub", "1", nil}, {"unifi-outdoor", "1", nil}, {"labor-install", "8", nil}}},
	}},
	{"Equipment Closet", []roomPackage{
		{"Rack, power, networking and whole-home control.", "Closet needs a dedicated 20A circuit and ventilation.",
			[]line{{"ma-rack", "1", nil}, {"ma-shelf", "2", nil}, {"wattbox", "1", nil}, {"ups", "1", nil},
				{"bundle-network", "1", []line{{"araknis-router", "1", nil}, {"araknis-switch", "1", nil}, {"araknis-wap", "4", nil}}},
				{"c4-core5", "1", nil}, {"c4-license", "1", nil}, {"cat6", "2", nil}, {"speaker-wire", "1", nil}, {"materials", "1", nil},
				{"labor-prewire", "24", nil}, {"labor-program", "12", nil}, {"labor-pm", "6", nil}, {"fee-permit", "1", nil},
				{"svc-monitor", "1", nil}, {"c4-4sight", "1", nil}}},
		{"UniFi networking with Control4 CORE 1.", "",
			[]line{{"ma-rack", "1", nil}, {"wattbox", "1", nil}, {"unifi-udm", "1", nil}, {"unifi-u7", "4", nil},
				{"c4-core1", "1", nil}, {"cat6", "1", nil}, {"labor-prewire", "16", nil}, {"labor-program", "6", nil},
				{"fee-permit", "1", nil}, {"svc-care", "1", nil}}},
	}},
	{"Home Office", []roomPackage{
		{"Wi-Fi 7 coverage and a Sonos speaker.", "",
			[]line{{"unifi-u7", "1", nil}, {"sonos-era", "1", nil}, {"labor-install", "2", nil}}},
	}},
	{"Gym", []roomPackage{
		{"Wall TV and in-ceiling audio.", "Use the anti-vibration mount kit.",
			[]line{{"samsung-75", "1", nil}, {"mount", "1", nil}, {"sonos-amp", "1", nil}, {"origin-ic", "1", nil},
				{"labor-install", "4", nil}, {"fee-disposal", "1", nil}}},
	}},
}

// place is a US address.
type place struct {
	street, city, postal, state, phone string
}

var places = []place{
	{"4512 Westlake Dr", "Austin", "78746", "TX", "(512) 555-0142"},
	{"1187 Mockingbird Ln", "Dallas", "75205", "TX", "(214) 555-0187"},
	{"22 Ocean Blvd", "Naples", "34102", "FL", "(239) 555-0119"},
	{"9 Harbor View Rd", "Sarasota", "34236", "FL", "(941) 555-0170"},
	{"740 Canyon Rim Dr", "Scottsdale", "85255", "AZ", "(480) 555-0133"},
	{"315 Aspen Ridge Ct", "Boulder", "80302", "CO", "(303) 555-0124"},
	{"58 Laurel Canyon Way", "San Diego", "92130", "CA", "(858) 555-0161"},
	{"2020 Lake Washington Blvd", "Seattle", "98112", "WA", "(206) 555-0158"},
	{"411 Belle Meade Blvd", "Nashville", "37205", "TN", "(615) 555-0145"},
	{"86 Peachtree Battle Ave", "Atlanta", "30305", "GA", "(404) 555-0191"},
	{"17 Old Post Rd", "Rye", "10580", "NY", "(914) 555-0102"},
	{"3400 Carmel Valley Rd", "Charlotte", "28226", "NC", "(704) 555-0116"},
	{"12 Riverview Ter", "Portland", "97201", "OR", "(503) 555-0139"},
	{"905 Pecan St", "Round Rock", "78664", "TX", "(512) 555-0173"},
	{"6 Palm Island Dr", "Miami Beach", "33139", "FL", "(305) 555-0128"},
	{"1450 Sunset Plaza Dr", "Los Angeles", "90069", "CA", "(310) 555-0197"},
}

var firstNames = []string{"Olivia", "Liam", "Emma", "Noah", "Ava", "Ethan", "Sophia", "Mason", "Isabella", "Lucas",
	"Mia", "James", "Charlotte", "Benjamin", "Amelia", "Henry", "Harper", "Daniel", "Evelyn", "Jack"}
var lastNames = []string{"Hendricks", "Alvarez", "Whitfield", "Nakamura", "Okafor", "Delgado", "Brennan", "Castellano",
	"Fitzgerald", "Lindqvist", "Moreau", "Patel", "Rosenberg", "Sullivan", "Thornton", "Vasquez", "Wexler", "Yamamoto",
	"Kowalski", "Ashford"}
var projectKinds = []string{"Whole-Home AV", "Theater Build", "Smart Home Upgrade", "Outdoor Entertainment",
	"Networking Refresh", "New Construction Pre-Wire", "Lighting and Shades", "Media Room Remodel"}
