module github.com/siamesetable/siamesed

go 1.26.8

require (
	github.com/coreos/go-systemd/v22 v22.6.0
	go.etcd.io/bbolt v1.4.3
	gocv.io/x/gocv v0.31.0
	golang.org/x/sync v0.10.0
	gopkg.in/yaml.v3 v3.0.1
	periph.io/x/conn/v3 v3.7.2
	periph.io/x/devices/v3 v3.7.4
	periph.io/x/host/v3 v3.8.5
)

require golang.org/x/sys v0.29.0 // indirect
