module github.com/siamesetable/siamesed

go 1.26.8

require (
	go.etcd.io/bbolt v1.4.3
	gocv.io/x/gocv v0.31.0
	golang.org/x/sys v0.29.0 // indirect
	gopkg.in/yaml.v3 v3.0.1 // indirect
	periph.io/x/conn/v3 v3.7.2 // indirect
	periph.io/x/devices/v3 v3.7.4 // indirect
	periph.io/x/host/v3 v3.8.5 // indirect
)
