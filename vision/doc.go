// Package vision turns an overhead camera's view of the discard area into discard events.
//
// The pipeline, a folder per idea:
//
//	camspec   the camera a camera: setting names (USB, libcamera, gst:PIPELINE, a recording), without OpenCV
//	source    frames: V4L2 camera, the Pi Camera Module or a GStreamer pipeline, or a video file
//	          (gocv.VideoCapture), a folder of images
//	synth     synthetic frames rendered from the CC0 tile artwork, with their ground truth
//	calib     the four corners of the discard area, a perspective warp, saved as YAML
//	detect    motion gating, change against a stable reference, tile extraction to canonical crops
//	classify  enrolment from example crops, nearest-neighbour classification, "unknown" when too far or too close
//	discard   settled frames to DiscardSeen / DiscardTaken events
//	enrol     an enrolment folder from photos a user already has (labels.csv)
//	labels    the labels.csv of an enrolment or test folder (the layout of shared/data/photos-dev)
//	watch     the camera worker: requests by op, a real camera's frame loop and health on an injected clock
//
// Everything but labels, camspec and calib's parser links OpenCV through gocv.
package vision
