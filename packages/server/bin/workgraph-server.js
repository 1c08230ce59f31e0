#!/usr/bin/env node
// A committed launcher, so installing a checkout links the bin before anything is built.
import '../dist/bin/server.js'
