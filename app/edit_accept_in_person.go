package app

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"image/png"
	"strconv"
	"time"
)

// AcceptInPerson is the client's acceptance taken on the salesperson's
// laptop, offline: the signer's name, the signature they drew, the
// option they chose in each area, the laptop's clock and ID, and the
// hash of the client view (ClientViewHash) they were shown. Applied, it
// accepts the proposal with those options, which locks it; it is
// refused when the proposal no longer gives that view (ProposalChanged),
// so nobody is bound to an offer they did not see. The server applies
// it the same way and records the evidence beside it.
type AcceptInPerson struct {
	ID         int64  `json:"proposalId"`
	SignerName string `json:"signerName"`
	// SignatureImage is the drawn signature, a PNG in standard base64.
	SignatureImage string `json:"signatureImage"`
	SnapshotHash   string `json:"snapshotHash"`
	// SignedAt is the laptop's clock when the client signed (RFC 3339),
	// kept as it was: a wrong clock is recorded, never trusted.
	SignedAt string         `json:"signedAt"`
	DeviceID string         `json:"deviceId"`
	Options  []OptionChoice `json:"options,omitempty"`
}

// OptionChoice is the option chosen in an area that offers several.
type OptionChoice struct {
	AreaID   int64 `json:"AreaId"`
	OptionID int64 `json:"AreaOptionId"`
}

// parseChoices reads a list of {AreaId, AreaOptionId} as the request
// sends it; the IDs must be whole numbers.
func parseChoices(name string, raw json.RawMessage, dst *[]OptionChoice) error {
	var list []struct {
		AreaID   json.Number `json:"AreaId"`
		OptionID json.Number `json:"AreaOptionId"`
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&list); err != nil {
		return Invalid(name, "must be a list of {AreaId, AreaOptionId}")
	}
	out := make([]OptionChoice, 0, len(list))
	for _, c := range list {
		a, err1 := c.AreaID.Int64()
		o, err2 := c.OptionID.Int64()
		if err1 != nil || err2 != nil || a <= 0 || o <= 0 {
			return Invalid(name, "each needs an AreaId and an AreaOptionId, whole numbers above 0")
		}
		out = append(out, OptionChoice{AreaID: a, OptionID: o})
	}
	*dst = out
	return nil
}

// MaxSignatureBytes bounds a drawn signature's PNG (before base64).
const MaxSignatureBytes = 200 << 10

// MaxSignaturePixels bounds a drawn signature's width × height. A PNG's
// header may declare any size in a few bytes, and drawing it on the
// certificate decodes it, so the bytes alone do not bound the memory:
// 4 Mpx is 16 MiB decoded, five times a 2400×720 pad at triple scale.
const MaxSignaturePixels = 4 << 20

// maxDeviceID bounds the laptop's ID, in characters.
const maxDeviceID = 200

const KindAcceptInPerson MutationKind = "acceptInPerson"
const OpAcceptInPerson Operation = "AcceptInPerson"

func init() {
	registerKind(func() Mutation { return &AcceptInPerson{} }, refusedWhenLocked)
}

func (m *AcceptInPerson) Kind() MutationKind   { return KindAcceptInPerson }
func (m *AcceptInPerson) Operation() Operation { return OpAcceptInPerson }
func (m *AcceptInPerson) ProposalID() int64    { return m.ID }

func (m *AcceptInPerson) Route() Route {
	return Route{Method: "POST", Path: "/public/proposals/{ProposalId}/accept-in-person", Extension: true,
		Name: "acceptInPerson", Summary: "Accept in person (extension)",
		Doc: "Records the client's acceptance taken on the salesperson's laptop: the proposal becomes Accepted with the chosen options Selected (the others Declined), and the evidence event AcceptedInPerson (device time and server time, device ID, the laptop's address) is chained, so signed.pdf has the certificate. 409 ProposalChanged when SnapshotHash is not the hash of the server's current client view: the client did not see this proposal. 409 ProposalLocked when it is already decided."}
}

func (m *AcceptInPerson) Params() []Param {
	return []Param{
		proposalParam(&m.ID),
		BodyText("SignerName", &m.SignerName, "The signer's full name.").Max(MaxNameLength).NonBlank().Require(),
		BodyText("SignatureImage", &m.SignatureImage, "The drawn signature: a PNG of at most 200 KB and "+strconv.Itoa(MaxSignaturePixels)+" pixels (width × height), in standard base64.").
			Max(base64.StdEncoding.EncodedLen(MaxSignatureBytes)).NonBlank().Require(),
		BodyText("SnapshotHash", &m.SnapshotHash, "Hex SHA-256 of the client view the signer saw on the laptop.").Max(64).NonBlank().Require(),
		BodyText("SignedAt", &m.SignedAt, "The laptop's time at signing (RFC 3339), recorded as it is.").As("date-time").Max(64).NonBlank().Require(),
		BodyText("DeviceId", &m.DeviceID, "The laptop's ID.").Max(maxDeviceID).NonBlank().Require(),
		BodyChoices("Options", &m.Options, "The chosen option of each area that offers several."),
	}
}

func (m *AcceptInPerson) Creates(*Proposal) []NewID { return nil }

func (m *AcceptInPerson) Writes() []Field {
	out := []Field{FieldStatus}
	for _, c := range m.Options {
		out = append(out, OptionField(c.OptionID, "status"))
	}
	return out
}

func (m *AcceptInPerson) Events() []WebhookEventType {
	return []WebhookEventType{EventProposalAccepted}
}

func (m *AcceptInPerson) Describe() string { return "Accepted in person by " + m.SignerName }

// pngMagic starts every PNG file.
var pngMagic = []byte("\x89PNG\r\n\x1a\n")

func (m *AcceptInPerson) Validate() error {
	if _, err := m.Signature(); err != nil {
		return err
	}
	if _, err := time.Parse(time.RFC3339, m.SignedAt); err != nil {
		return Invalid("SignedAt", "must be a time such as 2026-11-26T14:05:00+01:00")
	}
	seen := map[int64]bool{}
	for _, c := range m.Options {
		// Negative: a temporary ID of a part made on the laptop, which
		// the sync replaces before sending (the request's parser takes
		// only IDs above 0).
		if c.AreaID == 0 || c.OptionID == 0 {
			return Invalid("Options", "each needs an AreaId and an AreaOptionId")
		}
		if seen[c.AreaID] {
			return Invalid("Options", "names area %d twice", c.AreaID)
		}
		seen[c.AreaID] = true
	}
	return nil
}

// Signature is the drawn signature's PNG bytes, checked to be a PNG
// within MaxSignatureBytes whose declared size is within
// MaxSignaturePixels (read from its header alone).
func (m *AcceptInPerson) Signature() ([]byte, error) {
	data, err := base64.StdEncoding.DecodeString(m.SignatureImage)
	if err != nil {
		return nil, Invalid("SignatureImage", "must be standard base64")
	}
	if len(data) > MaxSignatureBytes {
		return nil, Invalid("SignatureImage", "is %d bytes; the limit is %d", len(data), MaxSignatureBytes)
	}
	if !bytes.HasPrefix(data, pngMagic) {
		return nil, Invalid("SignatureImage", "must be a PNG image")
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, Invalid("SignatureImage", "must be a PNG image")
	}
	if !SignatureSizeOK(cfg.Width, cfg.Height) {
		return nil, Invalid("SignatureImage", "is %d×%d pixels; the limit is %d pixels", cfg.Width, cfg.Height, MaxSignaturePixels)
	}
	return data, nil
}

// SignatureSizeOK reports whether a signature of w × h pixels may be
// drawn: at least one pixel, at most MaxSignaturePixels.
func SignatureSizeOK(w, h int) bool {
	return w > 0 && h > 0 && int64(w)*int64(h) <= MaxSignaturePixels
}

// Evidence keeps the signer, the drawn signature itself (so it is never
// lost) and its SHA-256, the laptop's clock as it was and the laptop's
// ID, the hash the laptop signed over, and the consent shown.
func (m *AcceptInPerson) Evidence() DecisionEvidence {
	data, _ := m.Signature() // Validate has checked it
	sum := sha256.Sum256(data)
	return DecisionEvidence{Type: EventAcceptedInPerson, Choices: m.Choices(), Data: map[string]string{
		"signerName":      m.SignerName,
		"deviceTime":      m.SignedAt,
		"deviceId":        m.DeviceID,
		"viewHash":        m.SnapshotHash,
		"signaturePng":    m.SignatureImage,
		"signatureSha256": hex.EncodeToString(sum[:]),
		"consentText":     ConsentText,
		"consentVersion":  ConsentVersion,
	}}
}

// SignaturePNG is the drawn signature kept in an acceptance's evidence
// data (Evidence's "signaturePng"), nil when it holds none, as a web
// acceptance's typed name does.
func SignaturePNG(data map[string]string) []byte {
	b, err := base64.StdEncoding.DecodeString(data["signaturePng"])
	if err != nil || len(b) == 0 {
		return nil
	}
	return b
}

// Choices are the chosen options as an area → option map.
func (m *AcceptInPerson) Choices() map[int64]int64 {
	out := make(map[int64]int64, len(m.Options))
	for _, c := range m.Options {
		out[c.AreaID] = c.OptionID
	}
	return out
}

func (m *AcceptInPerson) apply(p *Proposal, env *Env) error {
	// Already decided (or completed): the decision stands.
	if err := checkEditable(p); err != nil {
		return err
	}
	hash, err := ClientViewHash(p)
	if err != nil {
		return err
	}
	if hash != m.SnapshotHash {
		return Errorf(KindProposalChanged,
			"The proposal changed after the client signed: review the changes and ask the client again.")
	}
	// What the client saw had nothing to accept (a changed proposal is
	// ProposalChanged, above).
	if err := CheckOffersOption(p); err != nil {
		return err
	}
	for _, c := range m.Options {
		if err := CheckChoice(p, c.AreaID, c.OptionID); err != nil {
			return err
		}
	}
	ClientAccepted(p, ClientSnapshot(p), m.Choices(), env.Now)
	return nil
}

// CheckOffersOption refuses an acceptance of a proposal with no option
// in any area: there is nothing for the client to accept. The laptop's
// present mode asks it before showing the client's screen.
func CheckOffersOption(p *Proposal) error {
	for _, a := range p.Areas {
		if len(a.Options) > 0 {
			return nil
		}
	}
	return Errorf(KindValidationFailed, "The proposal has no options yet, so there is nothing for the client to accept.")
}
