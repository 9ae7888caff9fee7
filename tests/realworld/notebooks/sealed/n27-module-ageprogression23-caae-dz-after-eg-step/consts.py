# consts.py, cut down: smaller images and channels so the case runs on a CPU in seconds
IMAGE_LENGTH = 32
NUM_Z_CHANNELS = 50
NUM_ENCODER_CHANNELS = 64
NUM_GEN_CHANNELS = 64
NUM_AGES = 10
NUM_GENDERS = 2
LABEL_LEN_EXPANDED = NUM_AGES + NUM_GENDERS
