// Package catalogdemo generates a realistic-looking AV and low-voltage
// catalog, deterministically: the same n gives the same items, byte for
// byte. The demo server seeds it, load tests grow it (--demo-catalog),
// and the desktop's benchmarks search it. Brands are real dealer brands;
// models, part numbers and prices are invented but plausible (no
// manufacturer's price list).
package catalogdemo

import (
	"fmt"
	"math/rand/v2"

	"proposaldesk/app"
)

// family is a product line: the brands that make it and how its models
// are named and priced (MSRP range in dollars).
type family struct {
	category string
	brands   []string
	noun     string
	variants []string
	prefix   string
	minUSD   int
	maxUSD   int
	supplier string
}

var families = []family{
	{"Televisions", []string{"Sony", "Samsung", "LG", "TCL", "Hisense"}, "4K UHD Smart TV", []string{"55\"", "65\"", "75\"", "77\"", "85\"", "98\""}, "TV", 699, 12999, "ADI Global"},
	{"Outdoor Televisions", []string{"SunBriteTV", "Samsung", "Seura"}, "Outdoor 4K TV", []string{"55\" Partial Sun", "65\" Full Sun", "75\" Full Shade"}, "ODT", 1999, 9999, "Snap One"},
	{"Projectors", []string{"Sony", "Epson", "JVC", "BenQ", "Optoma"}, "4K Laser Projector", []string{"2,200 lm", "2,700 lm", "3,400 lm", "5,000 lm"}, "PJ", 1499, 29999, "ADI Global"},
	{"Projection Screens", []string{"Stewart Filmscreen", "Screen Innovations", "Elite Screens", "Da-Lite"}, "Projection Screen", []string{"100\" Fixed", "120\" Fixed", "135\" Motorized", "150\" Motorized"}, "SCR", 499, 11999, "ADI Global"},
	{"Soundbars", []string{"Sonos", "Bose", "Sony", "Samsung"}, "Dolby Atmos Soundbar", []string{"3.1", "5.1.2", "7.1.4"}, "SB", 399, 1999, "Sonos"},
	{"In-Ceiling Speakers", []string{"Origin Acoustics", "Sonance", "Episode", "Klipsch", "Bowers & Wilkins", "Triad", "JBL"}, "In-Ceiling Speaker", []string{"6.5\" 2-Way", "8\" 2-Way", "8\" LCR", "6.5\" Stereo"}, "IC", 199, 2999, "Snap One"},
	{"In-Wall Speakers", []string{"Origin Acoustics", "Sonance", "Episode", "Klipsch", "Bowers & Wilkins", "Triad", "Paradigm"}, "In-Wall Speaker", []string{"LCR", "6.5\" 2-Way", "8\" 3-Way", "Slim"}, "IW", 249, 4999, "Snap One"},
	{"Outdoor Speakers", []string{"Origin Acoustics", "Sonance", "Coastal Source", "Episode"}, "Landscape Speaker", []string{"Bollard 6\"", "Satellite 4\"", "Rock 8\"", "In-Ground Sub 12\""}, "OD", 199, 2499, "Snap One"},
	{"Subwoofers", []string{"SVS", "Triad", "Paradigm", "Sonos", "REL"}, "Subwoofer", []string{"10\" Sealed", "12\" Ported", "15\" Sealed", "In-Wall Dual 8\""}, "SUB", 499, 6999, "ADI Global"},
	{"AV Receivers", []string{"Denon", "Marantz", "Yamaha", "Anthem", "Onkyo"}, "AV Receiver", []string{"7.2 Ch", "9.4 Ch", "11.4 Ch", "13.4 Ch"}, "AVR", 699, 6999, "ADI Global"},
	{"Amplifiers", []string{"Sonos", "Episode", "Sonance", "Crown", "AudioControl", "Triad"}, "Multi-Zone Amplifier", []string{"2 Ch 125W", "4 Ch 100W", "8 Ch 60W", "16 Ch 50W"}, "AMP", 399, 4999, "Snap One"},
	{"Streaming Players", []string{"Apple", "Roku", "Kaleidescape", "Bluesound", "WiiM"}, "Streaming Player", []string{"HD", "4K", "Pro", "Mini"}, "STR", 49, 7999, "ADI Global"},
	{"Video Distribution", []string{"Binary", "Crestron", "Atlona", "Just Add Power", "AVPro Edge"}, "HDMI Matrix Switch", []string{"4x4", "8x8", "16x16", "HDBaseT Extender"}, "MX", 299, 14999, "Snap One"},
	{"Control Processors", []string{"Control4", "Crestron", "Savant", "URC", "Josh.ai"}, "Automation Controller", []string{"Single Room", "Whole Home", "Enterprise", "Micro"}, "CP", 299, 4999, "Snap One"},
	{"Touch Panels", []string{"Control4", "Crestron", "Savant", "URC"}, "Touch Screen", []string{"5\" In-Wall", "7\" In-Wall", "8\" Tabletop", "10\" In-Wall"}, "TS", 499, 3999, "Snap One"},
	{"Remotes", []string{"Control4", "Crestron", "URC", "Savant"}, "Handheld Remote", []string{"Voice", "Touch", "Basic", "Pro"}, "RMT", 99, 799, "Snap One"},
	{"Keypads", []string{"Lutron", "Control4", "Crestron", "Savant"}, "Keypad", []string{"2-Button", "4-Button", "6-Button", "Scene"}, "KP", 149, 699, "Lutron"},
	{"Dimmers and Switches", []string{"Lutron", "Control4", "Leviton", "Crestron"}, "Smart Dimmer", []string{"Wireless", "Neutral", "0-10V", "ELV"}, "DM", 79, 399, "Lutron"},
	{"Motorized Shades", []string{"Lutron", "Somfy", "Hunter Douglas", "Crestron"}, "Motorized Roller Shade", []string{"Blackout 48\"", "Blackout 72\"", "Sheer 48\"", "Dual 96\""}, "SH", 599, 3999, "Lutron"},
	{"Routers and Gateways", []string{"Araknis", "Ubiquiti", "Cisco Meraki", "Netgear", "Pakedge"}, "Router", []string{"Dual-WAN", "10G", "VPN", "SD-WAN"}, "RT", 199, 2999, "Snap One"},
	{"Network Switches", []string{"Araknis", "Ubiquiti", "Cisco", "Luxul", "Pakedge"}, "Managed PoE+ Switch", []string{"8-Port", "16-Port", "24-Port", "48-Port"}, "SW", 199, 4999, "Snap One"},
	{"Wireless Access Points", []string{"Araknis", "Ubiquiti", "Ruckus", "Access Networks", "Luxul"}, "Wi-Fi Access Point", []string{"Wi-Fi 6 Indoor", "Wi-Fi 6E Indoor", "Wi-Fi 7 Indoor", "Wi-Fi 6 Outdoor"}, "AP", 129, 1499, "Snap One"},
	{"Power", []string{"WattBox", "Furman", "Panamax", "APC", "SurgeX"}, "Power Conditioner", []string{"8 Outlet IP", "12 Outlet IP", "1500VA UPS", "3000VA UPS"}, "PWR", 199, 3999, "Snap One"},
	{"Racks and Enclosures", []string{"Middle Atlantic", "Strong", "Chief", "Lowell"}, "Equipment Rack", []string{"12RU", "27RU", "42RU", "Wall-Mount 8RU"}, "RK", 199, 3499, "ADI Global"},
	{"Mounts", []string{"Strong", "Chief", "Sanus", "Peerless-AV", "OmniMount"}, "TV Wall Mount", []string{"Fixed Large", "Tilt Large", "Full-Motion", "Ceiling"}, "MT", 59, 1499, "Snap One"},
	{"Surveillance Cameras", []string{"Luma", "Hikvision", "Axis", "Ubiquiti", "Hanwha"}, "IP Camera", []string{"4MP Dome", "8MP Bullet", "4MP Turret", "PTZ 25x"}, "CAM", 99, 2999, "Snap One"},
	{"Video Recorders", []string{"Luma", "Hikvision", "Axis", "Ubiquiti"}, "Network Video Recorder", []string{"8 Ch 4TB", "16 Ch 8TB", "32 Ch 16TB"}, "NVR", 399, 4999, "Snap One"},
	{"Doorbells and Intercoms", []string{"2N", "Control4", "DoorBird", "Ring", "Akuvox"}, "Video Intercom", []string{"Doorbell", "Outdoor Station", "Indoor Monitor", "Keypad Station"}, "INT", 199, 2499, "ADI Global"},
	{"Cables", []string{"Binary", "Vanco", "Monoprice", "AudioQuest", "West Penn"}, "Cable", []string{"Cat6 CMR 1000 ft", "16/4 Speaker 500 ft", "8K HDMI 6 ft", "Fiber HDMI 50 ft", "RG6 Quad 1000 ft"}, "CBL", 19, 899, "ADI Global"},
	{"Lighting Fixtures", []string{"Lutron", "Ketra", "Lightology", "DMF Lighting"}, "Recessed Downlight", []string{"4\" Round", "2\" Square", "6\" Adjustable", "Linear 4 ft"}, "LT", 89, 999, "Lutron"},
}

var finishes = []string{"Black", "White", "Silver", "Graphite", "Paintable"}
var finishCodes = []string{"BK", "WH", "SL", "GR", "PT"}

// laborLines and feeLines are the service lines every dealer sells; each
// appears in several levels or zones.
var laborLines = []struct{ name, desc, code string }{
	{"Pre-Wire Labor", "Rough-in of low-voltage cabling before drywall, per hour.", "PREWIRE"},
	{"Installation Labor", "Trim-out and installation of equipment, per hour.", "INSTALL"},
	{"Programming Labor", "Control system programming and interface design, per hour.", "PROG"},
	{"Network Configuration", "Router, switch and access point setup and testing, per hour.", "NET"},
	{"Calibration", "Display calibration and room correction, per hour.", "CAL"},
	{"Project Management", "Scheduling, trade coordination and site visits, per hour.", "PM"},
	{"Service Call", "On-site troubleshooting, per hour.", "SVC"},
	{"Design and Engineering", "System design, drawings and documentation, per hour.", "ENG"},
}
var laborLevels = []string{"Technician", "Lead Technician", "Engineer", "After Hours", "Weekend"}

// The (monthly) lines are recurring services.
var feeLines = []struct {
	name, desc, code string
	recurring        bool
}{
	{"Low-Voltage Permit Fee", "Permit and inspection fee of the city.", "PERMIT", false},
	{"Trip Charge", "Travel to a site outside the standard service area.", "TRIP", false},
	{"Equipment Disposal", "Removal and e-waste recycling of old equipment.", "DISPOSAL", false},
	{"Remote Monitoring (monthly)", "24/7 monitoring of network and power devices.", "MONITOR", true},
	{"Care Plan (monthly)", "Priority support and an annual system check-up.", "CARE", true},
	{"Rush Fee", "Scheduling ahead of the queue.", "RUSH", false},
}
var feeZones = []string{"Zone 1", "Zone 2", "Zone 3", "Zone 4", "Commercial", "Residential"}

// CategoryCount is the number of distinct categories Generate uses.
var CategoryCount = len(families) + 2

// Generate returns n items: about 94% parts across the families, the
// rest labor and fees. IDs are 0 (the store gives them); CategoryID is
// the category's position + 1, so it is stable across runs.
func Generate(n int) []app.CatalogItem {
	rng := rand.New(rand.NewPCG(20261123, 11))
	items := make([]app.CatalogItem, 0, n)
	service := 0
	for i := 0; len(items) < n; i++ {
		if i%17 == 16 {
			items = append(items, serviceItem(rng, service))
			service++
			continue
		}
		items = append(items, partItem(rng, i))
	}
	return items
}

func partItem(rng *rand.Rand, i int) app.CatalogItem {
	fi := rng.IntN(len(families))
	f := &families[fi]
	brand := f.brands[rng.IntN(len(f.brands))]
	variant := f.variants[rng.IntN(len(f.variants))]
	fin := rng.IntN(len(finishes))
	// The series number makes every model unique: i is unique, so the
	// part number (the import key) is too.
	series := 100 + i/7
	model := fmt.Sprintf("%s-%d%c", f.prefix, series, 'A'+rune(i%7))
	msrp := app.Money((f.minUSD + rng.IntN(f.maxUSD-f.minUSD+1)) * 100)
	if rng.IntN(2) == 0 {
		msrp -= 1 // ...x.99 pricing
	}
	sell := msrp * app.Money(88+rng.IntN(13)) / 100
	it := app.CatalogItem{
		ItemType:         app.ItemPart,
		Brand:            brand,
		Model:            model,
		Name:             fmt.Sprintf("%s %s %s, %s", brand, variant, f.noun, finishes[fin]),
		ShortDescription: fmt.Sprintf("%s %s %s", brand, model, f.noun),
		Description:      fmt.Sprintf("%s %s from %s's %d series, %s finish.", variant, f.noun, brand, series, finishes[fin]),
		PartNumber:       fmt.Sprintf("%s-%s-%s", brandCode(brand), model, finishCodes[fin]),
		CategoryID:       int64(fi + 1),
		CategoryName:     f.category,
		Supplier:         f.supplier,
		MSRP:             msrp,
		SellPrice:        sell,
		IsDiscontinued:   rng.IntN(40) == 0,
	}
	if rng.IntN(20) != 0 { // one in twenty has no cost on file
		c := sell * app.Money(45+rng.IntN(30)) / 100
		it.Cost = &c
	}
	if rng.IntN(3) != 0 {
		it.ImageURL = "https://images.example.com/catalog/" + it.PartNumber + ".jpg"
	}
	return it
}

func serviceItem(rng *rand.Rand, k int) app.CatalogItem {
	if k%3 == 2 {
		f := feeLines[(k/3)%len(feeLines)]
		zone := feeZones[(k/3/len(feeLines))%len(feeZones)]
		price := app.Money((25 + rng.IntN(300)) * 100)
		return app.CatalogItem{
			ItemType: app.ItemFee, Name: f.name + " - " + zone, Description: f.desc,
			PartNumber: fmt.Sprintf("FEE-%s-%d", f.code, k), CategoryID: int64(len(families) + 2),
			CategoryName: "Fees", SellPrice: price, IsRecurringService: f.recurring,
		}
	}
	l := laborLines[(k/3)%len(laborLines)]
	level := laborLevels[(k/3/len(laborLines))%len(laborLevels)]
	rate := app.Money((85 + rng.IntN(120)) * 100)
	cost := rate * app.Money(40+rng.IntN(15)) / 100
	return app.CatalogItem{
		ItemType: app.ItemLabor, Name: l.name + " - " + level, Description: l.desc,
		PartNumber: fmt.Sprintf("LAB-%s-%d", l.code, k), CategoryID: int64(len(families) + 1),
		CategoryName: "Labor", SellPrice: rate, Cost: &cost,
	}
}

// brandCode is a brand's short code in part numbers: its first letters.
func brandCode(brand string) string {
	var b []byte
	for i := 0; i < len(brand) && len(b) < 4; i++ {
		c := brand[i]
		switch {
		case c >= 'a' && c <= 'z':
			b = append(b, c-'a'+'A')
		case c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
			b = append(b, c)
		}
	}
	return string(b)
}
