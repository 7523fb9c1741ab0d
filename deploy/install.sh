#!/usr/bin/env bash
# Installs a Siamese Table on a Raspberry Pi (Raspberry Pi OS bookworm, 64-bit), as root:
#   sudo deploy/install.sh [--bin DIR] [--spi] [--no-camera] [--root DIR] [--prefix /usr/local]
# Safe to run again (to update, after a new build): it installs what is missing, replaces the
# programs, the unit and the Mosquitto files it owns, and never overwrites
# /etc/siamesed/siamesed.yaml, the data in /var/lib/siamesed or the MQTT passwords.
#
#   --bin DIR      where siamesed and siamesed-vision are (default: bin/, built by
#                  scripts/build.sh when missing, or copied there from scripts/build-arm64.sh)
#   --spi          enable SPI too (the MFRC522 profile); the reference racks need it OFF,
#                  since their HX711s use the SPI0 pins GPIO7-11
#   --no-camera    racks only: no OpenCV, no siamesed-vision (set camera: none in the config)
#   --root DIR     install into DIR as if it were / (packaging and the tests); the commands it
#                  runs (apt-get, useradd, raspi-config, systemctl) still come from PATH
#   --prefix DIR   where the programs go (default /usr/local: DIR/bin)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(dirname "$here")
root="" prefix=/usr/local bin="" spi=0 camera=1
while [ $# -gt 0 ]; do
	case "$1" in
	--root) root=${2%/}; shift 2 ;;
	--prefix) prefix=${2%/}; shift 2 ;;
	--bin) bin=$2; shift 2 ;;
	--spi) spi=1; shift ;;
	--no-camera) camera=0; shift ;;
	-h | --help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) echo "install: unknown argument $1 (see --help)" >&2; exit 2 ;;
	esac
done
if [ -z "$root" ] && [ "$(id -u)" != 0 ]; then
	echo "install: run as root: sudo $0 $*" >&2
	exit 1
fi
say() { echo "install: $*"; }

# 1. Debian packages: Mosquitto for the displays, OpenCV for siamesed-vision (the camera), and
# GStreamer's libcamera element with the base plugins (videoconvert, appsink) through which
# OpenCV reads the Raspberry Pi Camera Module (camera: libcamera; docs/vision.md).
pkgs=(mosquitto mosquitto-clients)
[ $camera = 0 ] || pkgs+=(libopencv-dev gstreamer1.0-plugins-base gstreamer1.0-libcamera)
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	say "apt-get install ${missing[*]}"
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# 2. The programs: built here unless --bin names them.
if [ -z "$bin" ]; then
	bin=$repo/bin
	if [ ! -x "$bin/siamesed" ]; then
		say "no $bin/siamesed: building it (scripts/build.sh)"
		bash "$repo/scripts/build.sh"
	fi
fi
[ -x "$bin/siamesed" ] || { echo "install: no $bin/siamesed" >&2; exit 1; }
install -d -m 0755 "$root$prefix/bin"
install -m 0755 "$bin/siamesed" "$root$prefix/bin/siamesed"
if [ $camera = 0 ]; then
	say "--no-camera: siamesed-vision not installed; set camera: none in /etc/siamesed/siamesed.yaml"
elif [ -x "$bin/siamesed-vision" ]; then
	install -m 0755 "$bin/siamesed-vision" "$root$prefix/bin/siamesed-vision"
else
	say "no $bin/siamesed-vision: the camera needs it (camera: none in the config runs without)"
fi
install -d -m 0755 "$root$prefix/share/doc/siamesed"
install -m 0644 "$repo/README.md" "$root$prefix/share/doc/siamesed/README.md"

# 3. The user the daemon runs as, in the groups that own the buses, pins and camera. On
# Raspberry Pi OS they all exist; elsewhere the missing ones are made, so the unit starts.
has() { # has passwd|group NAME
	if [ -n "$root" ]; then grep -q "^$2:" "$root/etc/$1" 2>/dev/null; else getent "$1" "$2" >/dev/null; fi
}
rootflag=()
[ -n "$root" ] && rootflag=(--root "$root")
for g in gpio i2c spi video; do
	has group "$g" || { say "groupadd $g"; groupadd "${rootflag[@]}" --system "$g"; }
done
if ! has passwd siamesed; then
	say "useradd siamesed"
	useradd "${rootflag[@]}" --system --user-group --home-dir /var/lib/siamesed --no-create-home \
		--shell /usr/sbin/nologin --comment "Siamese Table daemon" siamesed
fi
usermod "${rootflag[@]}" --append --groups gpio,i2c,spi,video siamesed

# 4. Configuration (copied once: later runs keep your edits) and the data directory.
install -d -m 0755 "$root/etc/siamesed"
if [ ! -e "$root/etc/siamesed/siamesed.yaml" ]; then
	install -m 0644 "$repo/configs/pi.yaml" "$root/etc/siamesed/siamesed.yaml"
	say "wrote /etc/siamesed/siamesed.yaml (from configs/pi.yaml): edit it for your table"
fi
install -d -m 0750 "$root/var/lib/siamesed"
table=$(sed -n 's/^table:[[:space:]]*\([A-Za-z0-9_-]*\).*/\1/p' "$root/etc/siamesed/siamesed.yaml" | head -n 1)
table=${table:-table1}

# 5. Mosquitto: the config, the ACL for this table, and the users' passwords, made once from
# the daemon's credentials (mosquitto_passwd -U hashes them; hashing twice would spoil them).
install -d -m 0755 "$root/etc/mosquitto/conf.d"
install -m 0644 "$here/mosquitto.conf" "$root/etc/mosquitto/conf.d/siamese.conf"
sed "s|siamese/table1/|siamese/$table/|g" "$here/mosquitto.acl" >"$root/etc/mosquitto/siamese.acl.new"
chmod 0644 "$root/etc/mosquitto/siamese.acl.new"
mv "$root/etc/mosquitto/siamese.acl.new" "$root/etc/mosquitto/siamese.acl"
if [ ! -e "$root/etc/mosquitto/siamese.passwd" ]; then
	"$bin/siamesed" mqtt passwords --data "$root/var/lib/siamesed" >"$root/etc/mosquitto/siamese.passwd.new"
	mosquitto_passwd -U "$root/etc/mosquitto/siamese.passwd.new"
	chmod 0640 "$root/etc/mosquitto/siamese.passwd.new"
	if [ -z "$root" ] && has group mosquitto; then chgrp mosquitto "$root/etc/mosquitto/siamese.passwd.new"; fi
	mv "$root/etc/mosquitto/siamese.passwd.new" "$root/etc/mosquitto/siamese.passwd"
	say "wrote /etc/mosquitto/siamese.passwd (passwords in /var/lib/siamesed/mqtt/credentials.yaml)"
fi
if [ -z "$root" ]; then chown -R siamesed:siamesed /var/lib/siamesed; fi

# 6. The systemd unit, with the programs where --prefix put them.
install -d -m 0755 "$root/etc/systemd/system"
sed "s|/usr/local/|$prefix/|g" "$here/siamesed.service" >"$root/etc/systemd/system/siamesed.service"
chmod 0644 "$root/etc/systemd/system/siamesed.service"

# 7. I2C on (buses 1 and 3: the reference racks), SPI off unless --spi. raspi-config does the
# first; the second bus is a device-tree overlay in config.txt.
reboot=0
if command -v raspi-config >/dev/null 2>&1; then
	if [ "$(raspi-config nonint get_i2c)" != 0 ]; then
		say "raspi-config nonint do_i2c 0 (I2C on)"
		raspi-config nonint do_i2c 0
		reboot=1
	fi
	if [ $spi = 1 ] && [ "$(raspi-config nonint get_spi)" != 0 ]; then
		say "raspi-config nonint do_spi 0 (SPI on)"
		raspi-config nonint do_spi 0
		reboot=1
	fi
else
	say "no raspi-config (not Raspberry Pi OS?): turn I2C on yourself: put dtparam=i2c_arm=on in config.txt and i2c-dev in /etc/modules$([ $spi = 1 ] && echo ', and dtparam=spi=on in config.txt'), then reboot"
fi
bootcfg=""
for f in "$root/boot/firmware/config.txt" "$root/boot/config.txt"; do
	if [ -f "$f" ]; then bootcfg=$f; break; fi
done
if [ -n "$bootcfg" ]; then
	if ! grep -qx 'dtoverlay=i2c3,pins_4_5' "$bootcfg"; then
		printf '\n# Siamese Table: the second rack bus, I2C3 on GPIO4/GPIO5 (docs/hardware.md)\ndtoverlay=i2c3,pins_4_5\n' >>"$bootcfg"
		say "added dtoverlay=i2c3,pins_4_5 to ${bootcfg#"$root"}"
		reboot=1
	fi
else
	say "no config.txt under /boot/firmware or /boot: add dtoverlay=i2c3,pins_4_5 to the Pi's config.txt for the racks of the second player"
fi

# 8. systemd: only where it runs (not in a container or chroot).
if [ -d "$root/run/systemd/system" ]; then
	systemctl daemon-reload
	systemctl enable siamesed.service mosquitto.service
	systemctl restart mosquitto.service
	say "enabled siamesed; start it with: sudo systemctl start siamesed"
else
	say "systemd is not running here (a container or chroot?): skipped daemon-reload and enable; on the Pi run: sudo systemctl daemon-reload && sudo systemctl enable --now mosquitto siamesed"
fi
if [ $reboot = 1 ]; then
	say "reboot for the I2C settings to take effect: sudo reboot"
fi
say "next: enrol the tags and calibrate the load cells and the camera (README, \"Running at a real table\")"
