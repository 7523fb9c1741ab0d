package rack

import "math"

// Rate estimates a chance from a stream of trials (a reader's tag reads: did a tag in its field
// answer this poll?) with exponential forgetting, so that it follows a reader whose antenna
// worsens. It is a Beta estimate: a prior worth Prior trials at PriorMean, plus the trials seen,
// each weighing less by a factor 1-1/Window per later trial.
type Rate struct {
	hits, trials float64
}

// Add counts one trial.
func (r *Rate) Add(hit bool, window float64) {
	d := 1 - 1/window
	r.hits *= d
	r.trials *= d
	r.trials++
	if hit {
		r.hits++
	}
}

// AddN counts n trials that all missed, then one that hit when hit is set: a tag read again
// after n misses (the misses count only once the tag is known to have stayed).
func (r *Rate) AddN(misses int, hit bool, window float64) {
	for range misses {
		r.Add(false, window)
	}
	if hit {
		r.Add(true, window)
	}
}

// Trials is the number of trials the estimate rests on, forgetting counted.
func (r Rate) Trials() float64 { return r.trials }

// Mean is the estimate, shrunk toward prior by prior's weight.
func (r Rate) Mean(prior, weight float64) float64 {
	return (r.hits + prior*weight) / (r.trials + weight)
}

// Lower is a cautious estimate: two standard deviations under Mean (at least 0.01).
func (r Rate) Lower(prior, weight float64) float64 {
	m := r.Mean(prior, weight)
	return max(0.01, m-2*math.Sqrt(m*(1-m)/(r.trials+weight)))
}

// Upper is two standard deviations over Mean (at most 0.9999, over any Mean a prior allows).
func (r Rate) Upper(prior, weight float64) float64 {
	m := r.Mean(prior, weight)
	return min(0.9999, m+2*math.Sqrt(m*(1-m)/(r.trials+weight)))
}

// RunFor is SMURF's binomial window (Jeffery, Garofalakis and Franklin, VLDB 2006): the fewest
// polls k in a row a tag read with chance p would miss with probability under delta,
// (1-p)^k < delta; at least 2, so one miss is never enough, and at most MaxRun.
func RunFor(p, delta float64) int {
	if p >= 1 {
		return 2
	}
	if p <= 0 {
		return MaxRun
	}
	k := math.Ceil(math.Log(delta) / math.Log(1-p))
	if math.IsNaN(k) || k > MaxRun {
		return MaxRun
	}
	return max(2, int(k))
}

// MaxRun bounds RunFor: a tag read less than about once in twenty polls would need more misses
// than a game gives time for; its reader is named failing in the health report long before.
const MaxRun = 400
