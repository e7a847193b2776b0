package exportfmt

import (
	"bufio"
	"io"

	"proposaldesk/app"
)

// JSONL writes proposal details as JSON Lines: each line is the detail
// exactly as GET /public/proposals/{id} returns it (the same encoder,
// app.ProposalDetail.AppendJSON, which writes json.Marshal's bytes), then
// "\n".
type JSONL struct {
	w   *bufio.Writer
	buf []byte
}

// NewJSONL starts a JSON Lines export on w.
func NewJSONL(w io.Writer) *JSONL {
	return &JSONL{w: bufio.NewWriterSize(w, 32<<10)}
}

// Write adds one proposal (one line).
func (j *JSONL) Write(d *app.ProposalDetail) (int, error) {
	b, err := d.AppendJSON(j.buf[:0])
	if err != nil {
		return 0, err
	}
	j.buf = append(b, '\n')
	_, err = j.w.Write(j.buf)
	return 1, err
}

// Flush writes buffered lines to the underlying writer.
func (j *JSONL) Flush() error { return j.w.Flush() }

// Writer is a part of an export being written.
type Writer interface {
	// Write adds a proposal and reports how many records (rows or
	// lines) it wrote.
	Write(d *app.ProposalDetail) (int, error)
	Flush() error
}

var (
	_ Writer = (*CSV)(nil)
	_ Writer = (*JSONL)(nil)
)

// Format is an export file format.
type Format string

const (
	FormatCSV   Format = "csv"
	FormatJSONL Format = "jsonl"
)

// Part is one file of an export: CSV has two, JSON Lines one.
type Part string

const (
	PartProposals Part = "proposals"
	PartItems     Part = "items"
)

// New returns the writer of a format and part.
func New(w io.Writer, f Format, p Part) Writer {
	switch {
	case f == FormatJSONL:
		return NewJSONL(w)
	case p == PartItems:
		return NewItemsCSV(w)
	default:
		return NewProposalsCSV(w)
	}
}

// ContentType is the media type of a format.
func (f Format) ContentType() string {
	if f == FormatJSONL {
		return "application/jsonl; charset=utf-8"
	}
	return "text/csv; charset=utf-8; header=present"
}
