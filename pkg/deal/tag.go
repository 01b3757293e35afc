package deal

import "strconv"

// Tag identifies the write that produced a value: worker, phase and the
// worker's write sequence number in that phase (counting every write op
// dealt, acknowledged or not), or the preload.
type Tag struct {
	Worker, Phase int
	Seq           uint64
	Preload       bool
}

const (
	tagPrefix  = "gbv1:"
	preloadTag = "gbv1:preload:"
	tagLen     = 30 // "gbv1:" + 8 hex + ":" + 2 hex + ":" + 12 hex + ":"
)

// PutTag writes the tag of worker's write seq in run phase phase at the
// start of v, which holds at least
// workload.MinVerifyValueSize bytes (see ParseTag).
func PutTag(v []byte, worker, phase int, seq uint64) {
	b := append(v[:0], tagPrefix...)
	b = appendHex(b, uint64(worker), 8)
	b = append(b, ':')
	b = appendHex(b, uint64(phase), 2)
	b = append(b, ':')
	b = appendHex(b, seq, 12)
	_ = append(b, ':')
}

func appendHex(b []byte, v uint64, width int) []byte {
	const digits = "0123456789abcdef"
	for i := width - 1; i >= 0; i-- {
		b = append(b, digits[(v>>(4*uint(i)))&15])
	}
	return b
}

// ParseTag reads the tag at the start of a value.
func ParseTag(v []byte) (Tag, bool) {
	if len(v) >= len(preloadTag) && string(v[:len(preloadTag)]) == preloadTag {
		return Tag{Preload: true}, true
	}
	if len(v) < tagLen || string(v[:len(tagPrefix)]) != tagPrefix || v[13] != ':' || v[16] != ':' || v[29] != ':' {
		return Tag{}, false
	}
	w, err1 := strconv.ParseUint(string(v[5:13]), 16, 32)
	p, err2 := strconv.ParseUint(string(v[14:16]), 16, 8)
	s, err3 := strconv.ParseUint(string(v[17:29]), 16, 48)
	if err1 != nil || err2 != nil || err3 != nil {
		return Tag{}, false
	}
	return Tag{Worker: int(w), Phase: int(p), Seq: s}, true
}
