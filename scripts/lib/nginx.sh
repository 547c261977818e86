# Sourced by the bench scripts: nginx serving the files of a directory, the
# baseline "the same bytes from nginx" (sendfile, no access log, keep-alive
# for the whole run), as BENCHMARKS.md describes it.
#
#   start_nginx WORK PORT   serves WORK/www on 127.0.0.1:PORT; its pid in WORK/nginx.pid
#   stop_nginx WORK
start_nginx() {
  local work=$1 port=$2
  chmod 755 "$work"  # nginx's workers read the files as another user
  cat >"$work/nginx.conf" <<NGINX
worker_processes 2;
pid $work/nginx.pid;
error_log $work/nginx-error.log;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  types { application/json json; application/xml xml; }
  server {
    listen 127.0.0.1:$port;
    root $work/www;
  }
}
NGINX
  nginx -c "$work/nginx.conf"
  sleep 0.3
}

stop_nginx() {
  if [ -f "$1/nginx.pid" ]; then kill "$(cat "$1/nginx.pid")" 2>/dev/null || true; fi
  rm -f "$1/nginx.pid"
}
