#include "test_dns_server.h"

#include <sys/socket.h>

#include <boost/asio/ip/udp.hpp>
#include <string>
#include <vector>

namespace robotscan::testing {

namespace asio = boost::asio;
using asio::ip::udp;

struct TestDnsServer::Impl {
  asio::io_context io;
  udp::socket socket{io};
};

TestDnsServer::TestDnsServer() : impl_(std::make_unique<Impl>()) {
  const udp::endpoint loopback(asio::ip::make_address("127.0.0.1"), 0);
  impl_->socket.open(loopback.protocol());
  impl_->socket.bind(loopback);
  port_ = impl_->socket.local_endpoint().port();
  thread_ = std::thread([this] { Loop(); });
}

TestDnsServer::~TestDnsServer() {
  stopping_ = true;
  // Asio's blocking receive polls past SO_RCVTIMEO; a datagram wakes it.
  boost::system::error_code ec;
  udp::socket waker(impl_->io);
  waker.open(udp::v4(), ec);
  const char byte = 0;
  waker.send_to(asio::buffer(&byte, 1),
                udp::endpoint(asio::ip::make_address("127.0.0.1"),
                              static_cast<unsigned short>(port_)),
                0, ec);
  thread_.join();
}

void TestDnsServer::Loop() {
  std::vector<unsigned char> query(1500);
  while (!stopping_) {
    udp::endpoint peer;
    boost::system::error_code ec;
    const std::size_t n =
        impl_->socket.receive_from(asio::buffer(query), peer, 0, ec);
    if (ec || n < 12) continue;
    ++queries_;
    // Question: QNAME labels from offset 12, then QTYPE, QCLASS.
    std::size_t pos = 12;
    std::string first_label;
    bool first = true;
    while (pos < n && query[pos] != 0) {
      const std::size_t len = query[pos];
      if (pos + 1 + len > n) break;
      if (first) {
        first_label.assign(reinterpret_cast<const char*>(&query[pos + 1]), len);
        first = false;
      }
      pos += 1 + len;
    }
    if (pos + 5 > n) continue;
    const std::size_t question_end = pos + 5;
    const int qtype = (query[pos + 1] << 8) | query[pos + 2];
    if (first_label == "timeout") continue;

    std::vector<unsigned char> reply(
        query.begin(), query.begin() + static_cast<long>(question_end));
    reply[2] = 0x81;          // QR, RD
    reply[3] = 0x80;          // RA, rcode 0
    reply[6] = reply[7] = 0;  // ANCOUNT
    reply[8] = reply[9] = reply[10] = reply[11] = 0;
    if (first_label == "nx") {
      reply[3] = 0x83;
    } else if (first_label == "servfail") {
      reply[3] = 0x82;
    } else {
      std::vector<unsigned char> rdata;
      if (qtype == 1 && first_label != "v6only") {
        rdata = {127, 0, 0, 1};
      } else if (qtype == 28 && first_label == "v6only") {
        rdata.assign(16, 0);
        rdata[15] = 1;
      }
      if (!rdata.empty()) {
        reply[7] = 1;
        const unsigned char answer[] = {
            0xC0,
            0x0C,  // name: pointer to the question
            static_cast<unsigned char>(qtype >> 8),
            static_cast<unsigned char>(qtype & 0xff),
            0,
            1,  // class IN
            0,
            0,
            0,
            60,  // TTL
            0,
            static_cast<unsigned char>(rdata.size())};
        reply.insert(reply.end(), std::begin(answer), std::end(answer));
        reply.insert(reply.end(), rdata.begin(), rdata.end());
      }
    }
    impl_->socket.send_to(asio::buffer(reply), peer, 0, ec);
  }
}

}  // namespace robotscan::testing
